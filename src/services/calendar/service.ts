import { addDays, monthOfDay, monthWeeks, parseMonth } from '@shared/calendar.js';
import { dayInZone } from '@shared/format.js';
import type { EventCalendar } from '@shared/schemas/calendar.js';
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import { eventsShowingBetween } from './queries.js';

/** Multi-day events are drawn on their days when they started at most this long before the grid's first day. */
const LONGEST_SPAN_DAYS = 31;
/** Events one month's grid shows at most; a season's month holds far fewer. */
const MOST_EVENTS = 500;

/**
 * The events of a month's calendar grid (Monday to Sunday weeks, so some days of the months around it), by start
 * date, multi-day events with their end. `month` is 'YYYY-MM'; none means the visitor's current month.
 */
export async function eventCalendar(ctx: AppContext, month: string | null, timeZone: string): Promise<EventCalendar> {
  const today = dayInZone(ctx.clock.now(), timeZone);
  const shown = month === null ? monthOfDay(today) : parseMonth(month);
  if (!shown) throw badRequest('month must be a month written YYYY-MM, e.g. 2027-03');
  const weeks = monthWeeks(shown);
  const from = weeks[0]![0]!;
  const until = weeks[weeks.length - 1]![6]!;
  const { rows, truncated } = await eventsShowingBetween(ctx.db, from, until, addDays(from, -LONGEST_SPAN_DAYS), MOST_EVENTS);
  return {
    month: shown,
    today,
    truncated,
    events: rows.map((row) => ({
      id: Number(row.id),
      eventName: String(row.eventName),
      eventStartDate: String(row.eventStartDate),
      eventEndDate: (row.eventEndDate as string | null) ?? null,
      featuredRace: Boolean(row.featuredRace),
      locationState: (row.locationState as string | null) ?? null,
    })),
  };
}
