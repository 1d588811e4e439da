import { CLUB_TYPE_LABELS, labelOf } from '@shared/labels.js';
import { useLoaderData } from 'react-router';
import { PAGE_SIZE, type RunClubSummary } from '@shared/schemas/records.js';
import { detailPath, editPath } from '@views/components/records/record-config.js';
import { RecordListPage } from '@views/components/records/list-page.js';
import { listLoader, type ListData } from '@views/components/records/loaders.js';
import { CardLine, RecordCard } from '@views/components/records/record-card.js';
import { Badge } from '@views/components/ui/primitives.js';
import { RUN_CLUB_TYPE_OPTIONS, runclubsConfig } from './config.js';

export const loader = listLoader('runclub');

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
      itemKey={(club) => club.id}
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
              {labelOf(CLUB_TYPE_LABELS, type)}
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
