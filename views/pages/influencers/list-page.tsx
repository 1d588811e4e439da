import { lazyAction } from '@views/components/records/lazy-action.js';
import { definedColumns } from '@views/components/records/defined-columns.js';
import { sortingOf } from '@views/components/records/list-views.js';
import { useLoaderData } from 'react-router';
import { type Influencer } from '@shared/schemas/records.js';
import { PAGE_SIZE } from '@shared/list-options.js';
import { InfluencerTypeBadge } from '@views/components/records/badges.js';
import { ConfirmDeleteButton, useDeleteRecord } from '@views/components/records/delete-dialog.js';
import { ExternalLink } from '@views/components/records/detail.js';
import { detailPath, editPath } from '@views/components/records/record-config.js';
import { atHandle } from '@views/components/records/links.js';
import { RecordListPage } from '@views/components/records/list-page.js';
import { listLoader, type ListData } from '@views/components/records/loaders.js';
import { CardLine, RecordCard } from '@views/components/records/record-card.js';
import { ButtonLink } from '@views/components/ui/button-link.js';
import { fullName, influencersConfig } from './config.js';
import { deleteFields } from '@views/components/records/delete-fields.js';

export const loader = listLoader('influencer');
export const action = lazyAction(influencersConfig, async () => (await import('@views/components/records/list-actions.js')).listAction);

/** The cells the influencers table draws itself; the other columns are the definition's (`definedColumns`). */
const cells = {
  name: (i: Influencer) => <a href={detailPath(influencersConfig, i.id)}>{`${i.firstName} ${i.lastName}`}</a>,
  influencerType: (i: Influencer) => <InfluencerTypeBadge type={i.influencerType} />,
  instagramHandle: (i: Influencer) => i.instagramHandle && `@${i.instagramHandle}`,
};

export function Component() {
  const data = useLoaderData() as ListData<Influencer>;
  const columns = definedColumns(data.tableColumns, cells);
  const deleteInfluencer = useDeleteRecord();
  return (
    <RecordListPage
      title="Influencers"
      listPath={influencersConfig.listPath}
      searchLabel="Search influencers"
      searchPlaceholder="Search influencers..."
      actions={<ButtonLink to="/influencers/add">Add Influencer</ButtonLink>}
      {...data}
      pageSize={PAGE_SIZE}
      columns={columns}
      sorting={sortingOf(data.sorts, columns)}
      itemKey={(influencer) => influencer.id}
      itemLabel={(influencer) => `${influencer.firstName} ${influencer.lastName}`}
      empty={(searching) => ({
        title: 'No influencers found',
        hint: searching ? 'Try adjusting your search terms.' : 'Get started by adding your first influencer.',
      })}
      renderCard={(influencer) => {
        const name = fullName(influencer);
        return (
          <RecordCard
            to={detailPath(influencersConfig, influencer.id)}
            editTo={editPath(influencersConfig, influencer.id)}
            title={name}
            testId="influencer-card"
            badges={<InfluencerTypeBadge type={influencer.influencerType} />}
            actions={
              <ConfirmDeleteButton
                small
                ariaLabel={`Delete ${name}`}
                menuFor={name}
                question="Are you sure you want to delete this influencer?"
                postFields={deleteFields(influencer.id)}
                onConfirm={() => deleteInfluencer(influencer.id)}
              />
            }
          >
            <CardLine>{atHandle(influencer.instagramHandle)}</CardLine>
            <CardLine>{influencer.websiteUrl && <ExternalLink href={influencer.websiteUrl}>Website</ExternalLink>}</CardLine>
            <CardLine>{influencer.email}</CardLine>
          </RecordCard>
        );
      }}
    />
  );
}
