import { DetailLayout } from '@views/components/records/detail-tabs.js';
import { useLoaderData } from 'react-router';
import type { Media } from '@shared/schemas/records.js';
import { ContactsCard } from '@views/components/attachments/index.js';
import { RecordDetailActions } from '@views/components/records/delete-dialog.js';
import {
  DateTimeText,
  ExternalButton,
  ExternalLink,
  InfoList,
  multilineText,
  NotFoundView,
  PageHeader,
  SideCard,
} from '@views/components/records/detail.js';
import { detailLoader, type DetailData } from '@views/components/records/loaders.js';
import { Card, CardHeader } from '@views/components/ui/primitives.js';
import { recordDetailAction } from '@views/components/attachments/actions.js';
import { mediaConfig } from './config.js';

export const loader = detailLoader('media');
/** The record's delete and its contacts', payments' and files' writes (the cards post them here). */
export const action = recordDetailAction(mediaConfig);

export function Component() {
  const { record: media, attachments } = useLoaderData() as DetailData<Media>;
  if (!media) return <NotFoundView title="Media outlet not found" backTo="/media" backLabel="Return to Media" />;
  const name = media.mediaName || 'Unnamed Media';
  return (
    <div className="page">
      <PageHeader
        backTo="/media"
        backLabel="Back to Media"
        title={name}
        actions={
          <RecordDetailActions
            kind={mediaConfig}
            id={media.id}
            editLabel="Edit Media Outlet"
            question="Are you sure you want to delete this media outlet? This action cannot be undone."
          />
        }
      />
      <DetailLayout
        ownerType="media"
        ownerId={media.id}
        attachments={attachments}
        details={
          <>
            <Card className="records-section">
              <CardHeader title="Media Information" />
              <InfoList
                items={[
                  { label: 'Name', value: name },
                  { label: 'Industry', value: media.industry },
                  { label: 'Website', value: media.websiteUrl && <ExternalLink href={media.websiteUrl} /> },
                  { label: 'Instagram', value: media.instagramUrl && <ExternalLink href={media.instagramUrl} /> },
                  { label: 'Notes', value: multilineText(media.notes) },
                ]}
              />
            </Card>
            <ContactsCard ownerType="media" ownerId={media.id} contacts={attachments.contacts} />
          </>
        }
        sidebar={
          <>
            <SideCard title="Quick Info">
              <InfoList
                items={[
                  { label: 'Industry', value: media.industry || 'Media Outlet' },
                  { label: 'Created', value: <DateTimeText value={media.createdAt} /> },
                  { label: 'Last updated', value: <DateTimeText value={media.updatedAt} /> },
                ]}
              />
              <div className="records-button-stack">
                <ExternalButton href={media.websiteUrl}>Visit Site</ExternalButton>
              </div>
            </SideCard>
          </>
        }
      />
    </div>
  );
}
