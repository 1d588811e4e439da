import { DetailLayout } from '@views/components/records/detail-tabs.js';
import { BRAND } from '@shared/records/brand.js';
import { useLoaderData } from 'react-router';
import type { Brand } from '@shared/schemas/records.js';
import { ContactsCard } from '@views/components/attachments/index.js';
import { RecordDetailActions } from '@views/components/records/delete-dialog.js';
import { InfoCard, NotFoundView, PageHeader, QuickInfo, RecentActivity } from '@views/components/records/detail.js';
import { detailItems } from '@views/components/records/definition-views.js';
import { detailLoader, type DetailData } from '@views/components/records/loaders.js';
import { useFormat } from '@views/hooks/use-format.js';
import { recordDetailAction } from '@views/components/attachments/actions.js';
import { brandsConfig } from './config.js';

export const loader = detailLoader('brand');
/** The record's delete and its contacts', payments' and files' writes (the cards post them here). */
export const action = recordDetailAction(brandsConfig);

export function Component() {
  const { record: brand, attachments } = useLoaderData() as DetailData<Brand>;
  const format = useFormat();
  if (!brand) return <NotFoundView title="Brand not found" backTo="/brands" backLabel="Return to Brands" />;
  return (
    <div className="page">
      <PageHeader
        backTo="/brands"
        backLabel="Back to Brands"
        title={brand.brandName}
        actions={
          <RecordDetailActions
            kind={brandsConfig}
            id={brand.id}
            editLabel="Edit Brand"
            question="Are you sure you want to delete this brand? This action cannot be undone."
          />
        }
      />
      <DetailLayout
        ownerType="brand"
        ownerId={brand.id}
        attachments={attachments}
        details={
          <>
            <InfoCard title="Brand Information" items={detailItems(BRAND, 'Brand Information', brand, format)} />
            <ContactsCard ownerType="brand" ownerId={brand.id} contacts={attachments.contacts} />
          </>
        }
        sidebar={
          <>
            <QuickInfo
              items={[
                { label: 'Industry', value: brand.industryCategory },
                ...(brand.locationState ? [{ label: 'State', value: brand.locationState }] : []),
              ]}
              website={brand.websiteUrl}
            />
            <RecentActivity createdAt={brand.createdAt} updatedAt={brand.updatedAt} />
          </>
        }
      />
    </div>
  );
}
