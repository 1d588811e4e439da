import { DefinedInfoCards } from '@views/components/records/defined-details.js';
import { DetailLayout } from '@views/components/records/detail-tabs.js';
import { valueLabel } from '@shared/labels.js';
import { useLoaderData } from 'react-router';
import type { Brand } from '@shared/schemas/records.js';
import { ContactsCard } from '@views/components/attachments/index.js';
import { RecordDetailActions } from '@views/components/records/delete-dialog.js';
import { NotFoundView, PageHeader, QuickInfo, RecentActivity } from '@views/components/records/detail.js';
import { detailLoader, type DetailData } from '@views/components/records/loaders.js';
import { lazyAction } from '@views/components/records/lazy-action.js';
import { brandsConfig } from './config.js';

export const loader = detailLoader('brand');
/** The record's delete and its contacts', payments' and files' writes (the cards post them here). */
export const action = lazyAction(brandsConfig, async () => (await import('@views/components/attachments/actions.js')).recordDetailAction);

export function Component() {
  const { record: brand, attachments, detailGroups } = useLoaderData() as DetailData<Brand>;
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
            <DefinedInfoCards groups={detailGroups} record={brand} values={{ paymentStatus: (b) => valueLabel(b.paymentStatus) }} />
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
