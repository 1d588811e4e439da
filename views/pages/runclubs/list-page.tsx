import { RUN_CLUB } from '@shared/records/runclub.js';
import { tableColumnsOf } from '@views/components/records/definition-views.js';
import { CLUB_TYPE_LABELS, typeLabel } from '@shared/labels.js';
import { listAction } from '@views/components/records/list-actions.js';
import { joined, sortingOf, type TableColumn } from '@views/components/records/list-views.js';
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
export const action = listAction(runclubsConfig);

/** The table's columns from the definition; the cells that are not a plain field are written here. */
const columns: Array<TableColumn<RunClubSummary>> = tableColumnsOf<RunClubSummary>(RUN_CLUB, (id) => detailPath(runclubsConfig, id), {
  clubType: (c) => joined(c.clubType, (type) => typeLabel(CLUB_TYPE_LABELS, type, c.clubTypeOther)),
});
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
