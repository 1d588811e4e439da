import { lazy, Suspense } from 'react';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { EventCalendar } from '@shared/schemas/calendar.js';
import { lazyAction } from '@views/components/records/lazy-action.js';
import { definedColumns } from '@views/components/records/defined-columns.js';
import { sortingOf } from '@views/components/records/list-views.js';
import { type EventSummary } from '@shared/schemas/records.js';
import { PAGE_SIZE } from '@shared/list-options.js';
import { EventStatusBadge } from '@views/components/records/badges.js';
import { DateText } from '@views/components/records/detail.js';
import { editPath, detailPath } from '@views/components/records/record-config.js';
import { RecordListPage } from '@views/components/records/list-page.js';
import { listDisplayOf, loadList, type ListData } from '@views/components/records/loaders.js';
import { layoutsOf, listNameOf } from '@shared/list-options.js';
import { LayoutSwitch } from '@views/components/records/list-views.js';
import { CardLine, RecordCard } from '@views/components/records/record-card.js';
import { ButtonLink } from '@views/components/ui/button-link.js';
import { dataSource, gated } from '@views/data/source.js';
import { useCanWrite } from '@views/hooks/use-session.js';
import { EVENT_FILTER_OPTIONS, eventsConfig } from './config.js';

/*
 * The season calendar loads when shown, not with the list (first-load budget). The loader awaits its code, so the
 * server (which renders to a string: no suspending there) and a navigation render it at once; only on hydration of
 * a page served with the calendar does it suspend, and React keeps the server's HTML until the code is here.
 */
const loadCalendar = () => import('@views/components/records/season-calendar.js');
let loadedCalendar: Awaited<ReturnType<typeof loadCalendar>>['SeasonCalendar'] | null = null;
const LazyCalendar = lazy(() => loadCalendar().then((module) => ({ default: module.SeasonCalendar })));

interface CalendarData {
  view: 'calendar';
  calendar: EventCalendar;
}

/**
 * The season calendar is the list's third view: `?view=calendar` (`&month=YYYY-MM`; a malformed month shows this
 * month), or plain `/events` for a user who last chose it. A URL that asks the list something (a search, a filter, a
 * sort, a page) shows the list, in cards when the remembered view is the calendar.
 */
export const loader = gated(async (args: LoaderFunctionArgs): Promise<ListData<EventSummary> | CalendarData> => {
  const search = new URL(args.request.url).searchParams;
  const ds = dataSource(args.context);
  const display = search.get('view') === 'calendar' ? null : listDisplayOf(ds, listNameOf('event'));
  const bare = [...search.keys()].every((key) => key === 'month');
  if (display && !(bare && (await display).layout === 'calendar')) {
    return loadList(
      'event',
      args,
      display.then((shown) => (shown.layout === 'calendar' ? { ...shown, layout: 'cards' } : shown)),
    );
  }
  const month = search.get('month');
  loadedCalendar ??= (await loadCalendar()).SeasonCalendar;
  return { view: 'calendar', calendar: await ds.eventCalendar(month && /^\d{4}-\d{2}$/.test(month) ? month : null) };
});
export const action = lazyAction(eventsConfig, async () => (await import('@views/components/records/list-actions.js')).listAction);

/** The cells the events table draws itself; the other columns are the definition's (`definedColumns`). */
const cells = {
  eventName: (e: EventSummary) => <a href={detailPath(eventsConfig, e.id)}>{e.eventName}</a>,
  eventStartDate: (e: EventSummary) => <DateText value={e.eventStartDate} empty="Date TBD" />,
  featuredRace: (e: EventSummary) => <EventStatusBadge featured={e.featuredRace} />,
};
const importButton = <ButtonLink to="/events/bulk-import">Bulk Import</ButtonLink>;

export function Component() {
  const data = useLoaderData() as ListData<EventSummary> | CalendarData;
  const canWrite = useCanWrite();
  if ('view' in data) {
    const Calendar = loadedCalendar ?? LazyCalendar;
    return (
      <div className="page">
        <div className="page-header">
          <h1>Events</h1>
          {canWrite && <div className="card-actions">{importButton}</div>}
        </div>
        <div className="toolbar records-view-bar">
          <LayoutSwitch layout="calendar" layouts={layoutsOf(listNameOf('event'))} />
        </div>
        <Suspense fallback={null}>
          <Calendar calendar={data.calendar} />
        </Suspense>
      </div>
    );
  }
  const columns = definedColumns(data.tableColumns, cells);
  return (
    <RecordListPage
      title="Events"
      listPath={eventsConfig.listPath}
      searchLabel="Search events"
      searchPlaceholder="Search name, state, address, WordPress ID"
      filter={{ param: 'filter', label: 'Show', options: EVENT_FILTER_OPTIONS }}
      actions={importButton}
      {...data}
      pageSize={PAGE_SIZE}
      columns={columns}
      sorting={sortingOf(data.sorts, columns)}
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
