import { CLUB_TYPE_LABELS, typeLabel, valueLabel } from '@shared/labels.js';
import { lazyAction } from '@views/components/records/lazy-action.js';
import { definedColumns } from '@views/components/records/defined-columns.js';
import { joined, sortingOf } from '@views/components/records/list-views.js';
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

/** The cells the runclubs table draws itself; the other columns are the definition's (`definedColumns`). */
const cells = {
  clubName: (c: RunClubSummary) => <a href={detailPath(runclubsConfig, c.id)}>{c.clubName}</a>,
  clubType: (c: RunClubSummary) => joined(c.clubType, (type) => typeLabel(CLUB_TYPE_LABELS, type, c.clubTypeOther)),
  paymentStatus: (c: RunClubSummary) => c.paymentStatus && valueLabel(c.paymentStatus),
};

export function Component() {
  const data = useLoaderData() as ListData<RunClubSummary>;
  const columns = definedColumns(data.tableColumns, cells);
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
      sorting={sortingOf(data.sorts, columns)}
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
