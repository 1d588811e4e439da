import { CLUB_TYPE_LABELS, typeLabel, valueLabel } from '@shared/labels.js';
import { DateText } from '@views/components/records/detail.js';
import { lazyAction } from '@views/components/records/lazy-action.js';
import { joined, MoneyText, sortingOf, type TableColumn } from '@views/components/records/list-views.js';
import { useLoaderData } from 'react-router';
import { type RunClubSummary } from '@shared/schemas/records.js';
import { PAGE_SIZE } from '@shared/list-options.js';
import { detailPath, editPath } from '@views/components/records/record-config.js';
import { RecordListPage } from '@views/components/records/list-page.js';
import { listLoader, type ListData } from '@views/components/records/loaders.js';
import { CardLine, RecordCard } from '@views/components/records/record-card.js';
import { Badge } from '@views/components/ui/primitives.js';
import { RUN_CLUB_TYPE_OPTIONS, runclubsConfig } from './config.js';

export const loader = listLoader('runclub');
export const action = lazyAction(runclubsConfig, async () => (await import('@views/components/records/list-actions.js')).listAction);

/** The table's columns: keys, headers and sorts as the definition has them (test/unit/record-definitions.test.ts). */
export const columns: Array<TableColumn<RunClubSummary>> = [
  { key: 'clubName', label: 'Name', sort: 'clubName', render: (c) => <a href={detailPath(runclubsConfig, c.id)}>{c.clubName}</a> },
  { key: 'locationState', label: 'State', sort: 'locationState', render: (c) => c.locationState },
  { key: 'clubType', label: 'Club type', render: (c) => joined(c.clubType, (type) => typeLabel(CLUB_TYPE_LABELS, type, c.clubTypeOther)) },
  { key: 'membershipCount', label: 'Members', sort: 'membershipCount', render: (c) => c.membershipCount },
  { key: 'paymentStatus', label: 'Payment status', sort: 'paymentStatus', render: (c) => c.paymentStatus && valueLabel(c.paymentStatus) },
  { key: 'totalPayments', label: 'Total payments', sort: 'totalPayments', render: (c) => <MoneyText value={c.totalPayments} /> },
  {
    key: 'lastNewsletterInclusion',
    label: 'Last newsletter',
    sort: 'lastNewsletterInclusion',
    render: (c) => <DateText value={c.lastNewsletterInclusion} empty="" />,
  },
];
const sorting = sortingOf('runclub', columns);

export function Component() {
  const data = useLoaderData() as ListData<RunClubSummary>;
  return (
    <RecordListPage
      title="Run Clubs"
      listPath={runclubsConfig.listPath}
      searchLabel="Search run clubs"
      searchPlaceholder="Search run clubs by name or state..."
      filter={{ param: 'type', label: 'Club type', options: RUN_CLUB_TYPE_OPTIONS }}
      {...data}
      pageSize={PAGE_SIZE}
      columns={columns}
      sorting={sorting}
      itemKey={(club) => club.id}
      itemLabel={(club) => club.clubName}
      empty={(searching) => ({
        title: 'No run clubs found',
        hint: searching
          ? 'No run clubs match this search or type. Try another name, state or type.'
          : 'Run clubs are synced from the content website: run a sync on the Integrations page.',
      })}
      renderCard={(club) => (
        <RecordCard
          to={detailPath(runclubsConfig, club.id)}
          editTo={editPath(runclubsConfig, club.id)}
          title={club.clubName}
          testId="runclub-card"
          badges={club.clubType.map((type) => (
            <Badge key={type} tone="info">
              {typeLabel(CLUB_TYPE_LABELS, type, club.clubTypeOther)}
            </Badge>
          ))}
        >
          <CardLine>{[club.locationAddress, club.locationState].filter(Boolean).join(', ')}</CardLine>
          <CardLine label="Meets">{club.meetingTimes.join(', ')}</CardLine>
          <CardLine label="Members">{club.membershipCount ?? ''}</CardLine>
        </RecordCard>
      )}
    />
  );
}
