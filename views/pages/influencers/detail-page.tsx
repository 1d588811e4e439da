import { DetailLayout } from '@views/components/records/detail-tabs.js';
import { useLoaderData } from 'react-router';
import type { Influencer } from '@shared/schemas/records.js';
import { INFLUENCER_TYPE_LABELS, labelOf } from '@shared/labels.js';
import { InfluencerTypeBadge } from '@views/components/records/badges.js';
import { RecordDetailActions } from '@views/components/records/delete-dialog.js';
import {
  DateTimeText,
  ExternalLink,
  InfoCard,
  multilineText,
  NotFoundView,
  PageHeader,
  QuickInfo,
} from '@views/components/records/detail.js';
import { atHandle, facebookProfile, instagramProfile, mailtoHref, telHref, tiktokProfile } from '@views/components/records/links.js';
import { detailLoader, type DetailData } from '@views/components/records/loaders.js';
import { fullName, influencersConfig } from './config.js';
import { lazyAction } from '@views/components/records/lazy-action.js';

export const loader = detailLoader('influencer');
/** The record's delete and its contacts', payments' and files' writes (the cards post them here). */
export const action = lazyAction(
  influencersConfig,
  async () => (await import('@views/components/attachments/actions.js')).recordDetailAction,
);

/**
 * Hand-written layout: the spec's influencer detail makes the handles social links, not a plain field list
 * (src/shared/records/influencer.ts).
 */
export function Component() {
  const { record: influencer, attachments } = useLoaderData() as DetailData<Influencer>;
  if (!influencer) return <NotFoundView title="Influencer not found" backTo="/influencers" backLabel="Return to Influencers" />;
  const name = fullName(influencer);
  const email = mailtoHref(influencer.email);
  const phone = telHref(influencer.phone);
  return (
    <div className="page">
      <PageHeader
        backTo="/influencers"
        backLabel="Back to Influencers"
        title={name}
        badges={<InfluencerTypeBadge type={influencer.influencerType} />}
        actions={
          <RecordDetailActions
            kind={influencersConfig}
            id={influencer.id}
            editLabel="Edit Influencer"
            question="Are you sure you want to delete this influencer? This action cannot be undone."
          />
        }
      />
      <DetailLayout
        ownerType="influencer"
        ownerId={influencer.id}
        attachments={attachments}
        details={
          <>
            <InfoCard
              title="Personal Information"
              items={[
                { label: 'Name', value: name },
                { label: 'Email', value: email ? <a href={email}>{influencer.email}</a> : null },
                { label: 'Phone', value: phone ? <a href={phone}>{influencer.phone}</a> : null },
                { label: 'Website', value: influencer.websiteUrl && <ExternalLink href={influencer.websiteUrl} /> },
                { label: 'Notes', value: multilineText(influencer.notes) },
              ]}
            />
            <InfoCard
              title="Social Media"
              items={[
                {
                  label: 'Instagram',
                  value: influencer.instagramHandle && (
                    <ExternalLink href={instagramProfile(influencer.instagramHandle)}>{atHandle(influencer.instagramHandle)}</ExternalLink>
                  ),
                },
                {
                  label: 'TikTok',
                  value: influencer.tiktokHandle && (
                    <ExternalLink href={tiktokProfile(influencer.tiktokHandle)}>{atHandle(influencer.tiktokHandle)}</ExternalLink>
                  ),
                },
                {
                  label: 'Facebook',
                  value: influencer.facebookHandle && (
                    <ExternalLink href={facebookProfile(influencer.facebookHandle)}>{influencer.facebookHandle}</ExternalLink>
                  ),
                },
              ]}
            />
          </>
        }
        sidebar={
          <QuickInfo
            items={[
              { label: 'Type', value: labelOf(INFLUENCER_TYPE_LABELS, influencer.influencerType) },
              { label: 'Created', value: <DateTimeText value={influencer.createdAt} /> },
              { label: 'Last updated', value: <DateTimeText value={influencer.updatedAt} /> },
            ]}
          />
        }
      />
    </div>
  );
}
