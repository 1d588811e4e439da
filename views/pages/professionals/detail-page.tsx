import { labelOf, PROFESSION_TYPE_LABELS, TRACK_TYPE_LABELS, typeLabel } from '@shared/labels.js';
import { useLoaderData } from 'react-router';
import type { Professional } from '@shared/schemas/records.js';
import { PublishBadge, SubscriptionBadge } from '@views/components/records/badges.js';
import { RecordDetailActions } from '@views/components/records/delete-dialog.js';
import {
  DateText,
  ExternalButton,
  ExternalLink,
  InfoList,
  listText,
  multilineText,
  NotFoundView,
  PageHeader,
} from '@views/components/records/detail.js';
import { wordpressAdminEditUrl } from '@views/components/records/links.js';
import { detailLoader, type DetailData } from '@views/components/records/loaders.js';
import { SyncedDetail } from '@views/components/records/synced-detail.js';
import { Card } from '@views/components/ui/primitives.js';
import { useSession } from '@views/hooks/use-session.js';
import { PROFESSIONAL_DELETE_QUESTION, professionalsConfig } from './config.js';
import { lazyAction } from '@views/components/records/lazy-action.js';

export const loader = detailLoader('professional');
/** The record's delete and its contacts', payments' and files' writes (the cards post them here). */
export const action = lazyAction(
  professionalsConfig,
  async () => (await import('@views/components/attachments/actions.js')).recordDetailAction,
);

/**
 * Hand-written layout: the spec's professional detail mixes badges, a composed location and the other profession
 * words, not a plain field list (src/shared/records/professional.ts).
 */
export function Component() {
  const { record: professional, attachments } = useLoaderData() as DetailData<Professional>;
  const { env } = useSession();
  if (!professional) return <NotFoundView title="Professional not found" backTo="/professionals" backLabel="Back to Professionals" />;
  const badges = (
    <>
      <PublishBadge wordpressId={professional.wordpressProfessionalId} unpublishedAt={professional.wordpressUnpublishedAt} />
      <SubscriptionBadge status={professional.subscriptionStatus} />
    </>
  );
  return (
    <div className="page">
      <PageHeader
        backTo="/professionals"
        backLabel="Back to Professionals"
        title={professional.businessName}
        badges={badges}
        actions={
          // Published professionals belong to the content site: they cannot be deleted here (spec point 4).
          <RecordDetailActions
            kind={professionalsConfig}
            id={professional.id}
            editLabel="Edit Professional"
            question={professional.wordpressProfessionalId === null ? PROFESSIONAL_DELETE_QUESTION : null}
          />
        }
      />
      <SyncedDetail
        ownerType="professional"
        record={professional}
        wordpressId={professional.wordpressProfessionalId}
        attachments={attachments}
        details={
          <Card className="records-section">
            <h2 className="card-title">Professional Details</h2>
            <InfoList
              items={[
                {
                  label: 'Profession type',
                  value:
                    professional.professionType &&
                    typeLabel(PROFESSION_TYPE_LABELS, professional.professionType, professional.professionTypeOther),
                },
                { label: 'Location', value: [professional.locationAddress, professional.locationState].filter(Boolean).join(', ') },
                { label: 'Website', value: professional.websiteUrl && <ExternalLink href={professional.websiteUrl} /> },
                { label: 'Instagram', value: professional.instagramUrl && <ExternalLink href={professional.instagramUrl} /> },
                { label: 'Facebook', value: professional.facebookUrl && <ExternalLink href={professional.facebookUrl} /> },
                { label: 'Specializations', value: listText(professional.specializations) },
                { label: 'Credentials', value: listText(professional.credentials) },
                { label: 'Delivery methods', value: listText(professional.deliveryMethods) },
                { label: 'Contact types', value: listText(professional.contactType) },
                { label: 'Track types', value: listText(professional.trackType.map((type) => labelOf(TRACK_TYPE_LABELS, type))) },
                { label: 'Subscription', value: <SubscriptionBadge status={professional.subscriptionStatus} /> },
                {
                  label: 'Subscription expiry',
                  value: professional.subscriptionExpiryDate && <DateText value={professional.subscriptionExpiryDate} />,
                },
                { label: 'Payment alert', value: professional.paymentAlertFlag ? 'Yes' : 'No' },
                { label: 'Notes', value: multilineText(professional.notes) },
              ]}
            />
          </Card>
        }
        status={badges}
        infoTitle="Professional Info"
        infoButtons={
          <>
            <ExternalButton href={professional.websiteUrl}>Visit Website</ExternalButton>
            <ExternalButton href={professional.instagramUrl}>Instagram</ExternalButton>
            <ExternalButton href={professional.facebookUrl}>Facebook</ExternalButton>
            <ExternalButton href={wordpressAdminEditUrl(env.wordpressAdminUrl, professional.wordpressProfessionalId)}>
              Edit in WordPress
            </ExternalButton>
          </>
        }
      />
    </div>
  );
}
