import { DateTimeText } from '@views/components/records/detail.js';
import { listAction } from '@views/components/records/list-actions.js';
import { joined, MoneyText, sortingOf, type TableColumn } from '@views/components/records/list-views.js';
import { useLoaderData } from 'react-router';
import { PAGE_SIZE, type EventSummary } from '@shared/schemas/records.js';
import { EventStatusBadge } from '@views/components/records/badges.js';
import { DateText } from '@views/components/records/detail.js';
import { editPath, detailPath } from '@views/components/records/record-config.js';
import { RecordListPage } from '@views/components/records/list-page.js';
import { listLoader, type ListData } from '@views/components/records/loaders.js';
import { CardLine, RecordCard } from '@views/components/records/record-card.js';
import { ButtonLink } from '@views/components/ui/primitives.js';
import { EVENT_FILTER_OPTIONS, eventsConfig } from './config.js';

export const loader = listLoader('event');
export const action = listAction(eventsConfig);

const columns: Array<TableColumn<EventSummary>> = [
  { key: 'eventName', label: 'Name', sort: 'eventName', render: (e) => <a href={detailPath(eventsConfig, e.id)}>{e.eventName}</a> },
  {
    key: 'eventStartDate',
    label: 'Start date',
    sort: 'eventStartDate',
    render: (e) => <DateText value={e.eventStartDate} empty="Date TBD" />,
  },
  { key: 'locationState', label: 'State', sort: 'locationState', render: (e) => e.locationState },
  { key: 'featuredRace', label: 'Status', sort: 'featuredRace', render: (e) => <EventStatusBadge featured={e.featuredRace} /> },
  { key: 'runType', label: 'Run type', render: (e) => joined(e.runType) },
  { key: 'trackType', label: 'Track type', render: (e) => joined(e.trackType) },
  {
    key: 'totalAdvertisingSpend',
    label: 'Advertising spend',
    sort: 'totalAdvertisingSpend',
    render: (e) => <MoneyText value={e.totalAdvertisingSpend} />,
  },
  {
    key: 'wordpressLastSync',
    label: 'Last sync',
    sort: 'wordpressLastSync',
    render: (e) => <DateTimeText value={e.wordpressLastSync} empty="" />,
  },
];
const sorting = sortingOf('event', columns);

export function Component() {
  const data = useLoaderData() as ListData<EventSummary>;
  return (
    <RecordListPage
      title="Events"
      listPath={eventsConfig.listPath}
      searchLabel="Search events"
      searchPlaceholder="Search events by name, state, address or WordPress ID..."
      filter={{ param: 'filter', label: 'Show', options: EVENT_FILTER_OPTIONS }}
      actions={<ButtonLink to="/events/bulk-import">Bulk Import</ButtonLink>}
      {...data}
      pageSize={PAGE_SIZE}
      columns={columns}
      sorting={sorting}
      itemKey={(event) => event.id}
      itemLabel={(event) => event.eventName}
      empty={(searching) => ({
        title: 'No events found',
        hint: searching
          ? 'No events match this search or filter. Events are imported from the content website.'
          : 'Events are imported from the content website: run a sync on the Integrations page or use Bulk Import.',
      })}
      renderCard={(event) => (
        <RecordCard
          to={detailPath(eventsConfig, event.id)}
          editTo={editPath(eventsConfig, event.id)}
          title={event.eventName}
          testId="event-card"
          badges={<EventStatusBadge featured={event.featuredRace} />}
        >
          <CardLine>{event.eventStartDate ? <DateText value={event.eventStartDate} /> : 'Date TBD'}</CardLine>
          <CardLine>{[event.locationAddress, event.locationState].filter(Boolean).join(', ')}</CardLine>
          <CardLine label="WordPress ID">{event.wordpressEventId ?? ''}</CardLine>
        </RecordCard>
      )}
    />
  );
}
