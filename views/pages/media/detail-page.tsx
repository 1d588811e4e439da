import { DefinedInfoCards } from '@views/components/records/defined-details.js';
import { DetailLayout } from '@views/components/records/detail-tabs.js';
import { useLoaderData } from 'react-router';
import type { Media } from '@shared/schemas/records.js';
import { ContactsCard } from '@views/components/attachments/index.js';
import { RecordDetailActions } from '@views/components/records/delete-dialog.js';
import { DateTimeText, NotFoundView, PageHeader, QuickInfo } from '@views/components/records/detail.js';
import { detailLoader, type DetailData } from '@views/components/records/loaders.js';
import { lazyAction } from '@views/components/records/lazy-action.js';
import { mediaConfig } from './config.js';

export const loader = detailLoader('media');
/** The record's delete and its contacts', payments' and files' writes (the cards post them here). */
export const action = lazyAction(mediaConfig, async () => (await import('@views/components/attachments/actions.js')).recordDetailAction);

export function Component() {
  const { record: media, attachments, detailGroups } = useLoaderData() as DetailData<Media>;
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
            <DefinedInfoCards groups={detailGroups} record={media} values={{ mediaName: () => name }} />
            <ContactsCard ownerType="media" ownerId={media.id} contacts={attachments.contacts} />
          </>
        }
        sidebar={
          <QuickInfo
            items={[
              { label: 'Industry', value: media.industry || 'Media Outlet' },
              { label: 'Created', value: <DateTimeText value={media.createdAt} /> },
              { label: 'Last updated', value: <DateTimeText value={media.updatedAt} /> },
            ]}
            website={media.websiteUrl}
          />
        }
      />
    </div>
  );
}
