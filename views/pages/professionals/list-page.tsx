import { labelOf, PROFESSION_TYPE_LABELS } from '@shared/labels.js';
import { lazyAction } from '@views/components/records/lazy-action.js';
import { definedColumns } from '@views/components/records/defined-columns.js';
import { sortingOf } from '@views/components/records/list-views.js';
import { useLoaderData } from 'react-router';
import { type Professional } from '@shared/schemas/records.js';
import { PAGE_SIZE } from '@shared/list-options.js';
import { PublishBadge, SubscriptionBadge } from '@views/components/records/badges.js';
import { ConfirmDeleteButton, useDeleteRecord } from '@views/components/records/delete-dialog.js';
import { detailPath, editPath } from '@views/components/records/record-config.js';
import { RecordListPage } from '@views/components/records/list-page.js';
import { listLoader, type ListData } from '@views/components/records/loaders.js';
import { CardLine, RecordCard } from '@views/components/records/record-card.js';
import { ButtonLink } from '@views/components/ui/button-link.js';
import { PROFESSIONAL_DELETE_QUESTION, professionalsConfig } from './config.js';
import { deleteFields } from '@views/components/records/delete-fields.js';

export const loader = listLoader('professional');
export const action = lazyAction(professionalsConfig, async () => (await import('@views/components/records/list-actions.js')).listAction);

/** The cells the professionals table draws itself; the other columns are the definition's (`definedColumns`). */
const cells = {
  businessName: (p: Professional) => <a href={detailPath(professionalsConfig, p.id)}>{p.businessName}</a>,
  locationState: (p: Professional) => [p.locationAddress, p.locationState].filter(Boolean).join(', '),
  published: (p: Professional) => <PublishBadge wordpressId={p.wordpressProfessionalId} unpublishedAt={p.wordpressUnpublishedAt} />,
  subscriptionStatus: (p: Professional) => <SubscriptionBadge status={p.subscriptionStatus} />,
};

export function Component() {
  const data = useLoaderData() as ListData<Professional>;
  const columns = definedColumns(data.tableColumns, cells);
  const deleteProfessional = useDeleteRecord();
  return (
    <RecordListPage
      title="Professionals"
      listPath={professionalsConfig.listPath}
      searchLabel="Search professionals"
      searchPlaceholder="Search professionals by name, type or state..."
      actions={<ButtonLink to="/professionals/add">Add Unpublished Professional</ButtonLink>}
      {...data}
      pageSize={PAGE_SIZE}
      columns={columns}
      sorting={sortingOf(data.sorts, columns)}
      itemKey={(professional) => professional.id}
      itemLabel={(professional) => professional.businessName}
      empty={(searching) => ({
        title: 'No professionals found',
        hint: searching
          ? 'No professionals match this search. Try another name, profession type or state.'
          : 'Professionals are synced from the content website; add an unpublished one to get started.',
      })}
      renderCard={(professional) => (
        <RecordCard
          to={detailPath(professionalsConfig, professional.id)}
          editTo={editPath(professionalsConfig, professional.id)}
          title={professional.businessName}
          testId="professional-card"
          badges={
            <>
              <PublishBadge wordpressId={professional.wordpressProfessionalId} unpublishedAt={professional.wordpressUnpublishedAt} />
              <SubscriptionBadge status={professional.subscriptionStatus} />
            </>
          }
          actions={
            <>
              {professional.wordpressProfessionalId === null && (
                <ConfirmDeleteButton
                  small
                  ariaLabel={`Delete ${professional.businessName}`}
                  menuFor={professional.businessName}
                  question={PROFESSIONAL_DELETE_QUESTION}
                  postFields={deleteFields(professional.id)}
                  onConfirm={() => deleteProfessional(professional.id)}
                />
              )}
            </>
          }
        >
          <CardLine>{professional.professionType && labelOf(PROFESSION_TYPE_LABELS, professional.professionType)}</CardLine>
          <CardLine>{[professional.locationAddress, professional.locationState].filter(Boolean).join(', ')}</CardLine>
        </RecordCard>
      )}
    />
  );
}
