import { DetailLayout } from '@views/components/records/detail-tabs.js';
import { valueLabel } from '@shared/labels.js';
import { useLoaderData } from 'react-router';
import type { Brand } from '@shared/schemas/records.js';
import { ContactsCard } from '@views/components/attachments/index.js';
import { RecordDetailActions } from '@views/components/records/delete-dialog.js';
import {
  DateText,
  ExternalLink,
  InfoCard,
  multilineText,
  NotFoundView,
  PageHeader,
  QuickInfo,
  RecentActivity,
} from '@views/components/records/detail.js';
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
            <InfoCard
              title="Brand Information"
              items={[
                { label: 'Name', value: brand.brandName },
                { label: 'Industry category', value: brand.industryCategory },
                { label: 'Website', value: brand.websiteUrl && <ExternalLink href={brand.websiteUrl} /> },
                { label: 'Instagram', value: brand.instagramUrl && <ExternalLink href={brand.instagramUrl} /> },
                { label: 'Facebook', value: brand.facebookUrl && <ExternalLink href={brand.facebookUrl} /> },
                { label: 'LinkedIn', value: brand.linkedinUrl && <ExternalLink href={brand.linkedinUrl} /> },
                { label: 'Advertising spend', value: format.money(brand.totalAdvertisingSpend) },
                { label: 'Payment status', value: valueLabel(brand.paymentStatus) },
                {
                  label: 'Last campaign ended',
                  value: brand.lastCampaignEndDate && <DateText value={brand.lastCampaignEndDate} />,
                },
                { label: 'Notes', value: multilineText(brand.notes) },
              ]}
            />
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
