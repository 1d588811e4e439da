import { Link } from 'react-router';
import { addMonths, monthOfDay, monthTitle, monthWeeks } from '@shared/calendar.js';
import { dateFormatter } from '@shared/format.js';
import { recordPagePath } from '@shared/record-types.js';
import type { EventCalendar } from '@shared/schemas/calendar.js';
import { useFormat } from '@views/hooks/use-format.js';
import { useSession } from '@views/hooks/use-session.js';

type CalendarEvent = EventCalendar['events'][number];
/** Where a day sits in an event: its only day, first, a middle one or its last. */
type Part = 'single' | 'start' | 'middle' | 'end';

/** How many events a day's cell lists before it says how many more there are. */
const SHOWN_PER_DAY = 3;

const calendarHref = (month: string) => `/events?view=calendar&month=${month}`;

/** The events on each day: a multi-day event is on every day from its start to its end. */
function eventsByDay(events: readonly CalendarEvent[], days: readonly string[]): Map<string, Array<{ event: CalendarEvent; part: Part }>> {
  const byDay = new Map(days.map((day) => [day, [] as Array<{ event: CalendarEvent; part: Part }>]));
  for (const event of events) {
    const last = event.eventEndDate && event.eventEndDate > event.eventStartDate ? event.eventEndDate : event.eventStartDate;
    for (const day of days) {
      if (day < event.eventStartDate || day > last) continue;
      const part: Part =
        event.eventStartDate === last ? 'single' : day === event.eventStartDate ? 'start' : day === last ? 'end' : 'middle';
      byDay.get(day)!.push({ event, part });
    }
  }
  return byDay;
}

/** Weekday names, Monday first, in the visitor's locale (2024-01-01 was a Monday). */
function weekdayNames(locale: string): string[] {
  const format = dateFormatter(locale, { weekday: 'short', timeZone: 'UTC' });
  return Array.from({ length: 7 }, (_, index) => format.format(new Date(Date.UTC(2024, 0, 1 + index))));
}

function EventChip({ event, part }: { event: CalendarEvent; part: Part }) {
  return (
    <Link
      to={recordPagePath('event', event.id)}
      className={`calendar-event calendar-event-${part}${event.featuredRace ? ' calendar-event-featured' : ''}`}
      title={event.eventName}
    >
      {part === 'middle' || part === 'end' ? <span className="visually-hidden">continues: </span> : null}
      {event.eventName}
    </Link>
  );
}

/**
 * The season calendar of `/events?view=calendar`: a month grid of events by start date (multi-day events on
 * each of their days, joined), today marked, previous and next month in the URL. On a phone the grid gives way to
 * an agenda: the month's days with events, in order.
 */
export function SeasonCalendar({ calendar }: { calendar: EventCalendar }) {
  const { locale } = useSession();
  const format = useFormat();
  const weeks = monthWeeks(calendar.month);
  const days = weeks.flat();
  const byDay = eventsByDay(calendar.events, days);
  const inMonth = (day: string) => monthOfDay(day) === calendar.month;
  const agendaDays = days.filter((day) => inMonth(day) && byDay.get(day)!.length > 0);
  const title = monthTitle(calendar.month, locale);
  const showsToday = monthOfDay(calendar.today) === calendar.month;
  return (
    <section className="calendar" aria-label={`Season calendar, ${title}`}>
      <div className="calendar-nav">
        <Link to={calendarHref(addMonths(calendar.month, -1))} className="btn btn-outline btn-sm" rel="prev">
          <span aria-hidden="true">‹ </span>Previous month
        </Link>
        <h2 className="calendar-title">{title}</h2>
        <Link to={calendarHref(addMonths(calendar.month, 1))} className="btn btn-outline btn-sm" rel="next">
          Next month<span aria-hidden="true"> ›</span>
        </Link>
        {!showsToday && (
          <Link to={calendarHref(monthOfDay(calendar.today))} className="btn btn-ghost btn-sm">
            Today
          </Link>
        )}
      </div>
      {agendaDays.length === 0 && (
        // An empty grid reads as not loaded: say so, and offer the way back to today's month.
        <p className="calendar-empty" role="status" data-testid="calendar-empty">
          No events in {title}
          {!showsToday && (
            <>
              {' '}
              <Link to={calendarHref(monthOfDay(calendar.today))} className="btn btn-outline btn-sm">
                Today
              </Link>
            </>
          )}
        </p>
      )}
      {calendar.truncated && <p className="muted">This month has more events than the calendar shows; the earliest are listed.</p>}
      <table className="calendar-grid">
        <thead>
          <tr>
            {weekdayNames(locale).map((name) => (
              <th key={name} scope="col">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0]}>
              {week.map((day) => {
                const entries = byDay.get(day)!;
                const today = day === calendar.today;
                return (
                  <td
                    key={day}
                    className={['calendar-day', !inMonth(day) && 'calendar-day-outside', today && 'calendar-today']
                      .filter(Boolean)
                      .join(' ')}
                    aria-current={today ? 'date' : undefined}
                    data-day={day}
                  >
                    <time dateTime={day} className="calendar-day-number">
                      <span className="visually-hidden">{format.date(day)}</span>
                      <span aria-hidden="true">{Number(day.slice(8))}</span>
                    </time>
                    {entries.slice(0, SHOWN_PER_DAY).map(({ event, part }) => (
                      <EventChip key={event.id} event={event} part={part} />
                    ))}
                    {entries.length > SHOWN_PER_DAY && <span className="calendar-more">+{entries.length - SHOWN_PER_DAY} more</span>}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="calendar-agenda">
        {agendaDays.length === 0 ? null : (
          <ol className="calendar-agenda-days">
            {agendaDays.map((day) => (
              <li
                key={day}
                className={day === calendar.today ? 'calendar-today' : undefined}
                aria-current={day === calendar.today ? 'date' : undefined}
              >
                <h3 className="calendar-agenda-day">
                  <time dateTime={day}>{format.date(day)}</time>
                  {day === calendar.today && <span className="badge badge-info">Today</span>}
                </h3>
                <ul className="calendar-agenda-events">
                  {byDay.get(day)!.map(({ event, part }) => (
                    <li key={event.id}>
                      <EventChip event={event} part={part} />
                      {event.locationState && <span className="muted"> · {event.locationState}</span>}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
