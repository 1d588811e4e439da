import { lazyAction } from '@views/components/records/lazy-action.js';
import { definedColumns } from '@views/components/records/defined-columns.js';
import { sortingOf } from '@views/components/records/list-views.js';
import { useLoaderData } from 'react-router';
import { type Media } from '@shared/schemas/records.js';
import { PAGE_SIZE } from '@shared/list-options.js';
import { ConfirmDeleteButton, useDeleteRecord } from '@views/components/records/delete-dialog.js';
import { ExternalLink } from '@views/components/records/detail.js';
import { detailPath, editPath } from '@views/components/records/record-config.js';
import { RecordListPage } from '@views/components/records/list-page.js';
import { listLoader, type ListData } from '@views/components/records/loaders.js';
import { CardLine, RecordCard } from '@views/components/records/record-card.js';
import { ButtonLink } from '@views/components/ui/button-link.js';
import { deleteFields } from '@views/components/records/delete-fields.js';
import { mediaConfig } from './config.js';

export const loader = listLoader('media');
export const action = lazyAction(mediaConfig, async () => (await import('@views/components/records/list-actions.js')).listAction);

/** The cells the media table draws itself; the other columns are the definition's (`definedColumns`). */
const cells = {
  mediaName: (m: Media) => <a href={detailPath(mediaConfig, m.id)}>{m.mediaName}</a>,
};

export function Component() {
  const data = useLoaderData() as ListData<Media>;
  const columns = definedColumns(data.tableColumns, cells);
  const deleteMedia = useDeleteRecord();
  return (
    <RecordListPage
      title="Media Management"
      listPath={mediaConfig.listPath}
      searchLabel="Search media outlets"
      searchPlaceholder="Search media outlets..."
      actions={<ButtonLink to="/media/add">Add Media Outlet</ButtonLink>}
      {...data}
      pageSize={PAGE_SIZE}
      columns={columns}
      sorting={sortingOf(data.sorts, columns)}
      itemKey={(media) => media.id}
      itemLabel={(media) => media.mediaName}
      empty={(searching) => ({
        title: 'No media outlets found',
        hint: searching ? 'Try adjusting your search terms.' : 'Get started by adding your first media outlet.',
      })}
      renderCard={(media) => {
        const name = media.mediaName || 'Unnamed Media';
        return (
          <RecordCard
            to={detailPath(mediaConfig, media.id)}
            editTo={editPath(mediaConfig, media.id)}
            title={name}
            testId="media-card"
            actions={
              <ConfirmDeleteButton
                small
                ariaLabel={`Delete ${name}`}
                menuFor={name}
                question="Are you sure you want to delete this media outlet?"
                postFields={deleteFields(media.id)}
                onConfirm={() => deleteMedia(media.id)}
              />
            }
          >
            <CardLine>{media.industry || 'Media Outlet'}</CardLine>
            {(media.websiteUrl || media.instagramUrl) && (
              <p className="records-card-line records-card-links">
                {media.websiteUrl && <ExternalLink href={media.websiteUrl}>Website</ExternalLink>}
                {media.instagramUrl && <ExternalLink href={media.instagramUrl}>Instagram</ExternalLink>}
              </p>
            )}
          </RecordCard>
        );
      }}
    />
  );
}
