import { labelOf, PROFESSION_TYPE_LABELS } from '@shared/labels.js';
import { ExternalLink } from '@views/components/records/detail.js';
import { DateText } from '@views/components/records/detail.js';
import { lazyAction } from '@views/components/records/lazy-action.js';
import { MoneyText, sortingOf, type TableColumn } from '@views/components/records/list-views.js';
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

/** The table's columns: keys, headers and sorts as the definition has them (test/unit/record-definitions.test.ts). */
export const columns: Array<TableColumn<Professional>> = [
  {
    key: 'businessName',
    label: 'Name',
    sort: 'businessName',
    render: (p) => <a href={detailPath(professionalsConfig, p.id)}>{p.businessName}</a>,
  },
  {
    key: 'professionType',
    label: 'Profession',
    sort: 'professionType',
    render: (p) => p.professionType && labelOf(PROFESSION_TYPE_LABELS, p.professionType),
  },
  {
    key: 'locationState',
    label: 'Location',
    sort: 'locationState',
    render: (p) => [p.locationAddress, p.locationState].filter(Boolean).join(', '),
  },
  {
    key: 'published',
    label: 'Published',
    render: (p) => <PublishBadge wordpressId={p.wordpressProfessionalId} unpublishedAt={p.wordpressUnpublishedAt} />,
  },
  { key: 'websiteUrl', label: 'Website', render: (p) => p.websiteUrl && <ExternalLink href={p.websiteUrl}>Website</ExternalLink> },
  {
    key: 'lastNewsletterInclusion',
    label: 'Last newsletter',
    sort: 'lastNewsletterInclusion',
    render: (p) => <DateText value={p.lastNewsletterInclusion} empty="" />,
  },
  {
    key: 'subscriptionStatus',
    label: 'Subscription',
    sort: 'subscriptionStatus',
    render: (p) => <SubscriptionBadge status={p.subscriptionStatus} />,
  },
  { key: 'totalPayments', label: 'Total payments', sort: 'totalPayments', render: (p) => <MoneyText value={p.totalPayments} /> },
];
const sorting = sortingOf('professional', columns);

export function Component() {
  const data = useLoaderData() as ListData<Professional>;
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
      sorting={sorting}
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
