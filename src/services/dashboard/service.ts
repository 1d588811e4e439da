import { addDays, monthOfDay, monthsUpTo } from '@shared/calendar.js';
import { dayInZone } from '@shared/format.js';
import { RECORD_TYPES, SYNC_KINDS, type RecordType } from '@shared/record-types.js';
import { readParts } from '@db/statement-parts.js';
import { UPCOMING_DAYS, type Dashboard } from '@shared/schemas/dashboard.js';
import type { AppContext } from '../context.js';
import { AWAITING_BUCKET, AWAITING_STATUSES, spendBucket } from '../payments/totals.js';
import { STATS_CODES, statsOfCounts } from '../stats/service.js';
import { latestRunsOf } from '../sync/service.js';
import { latestRunPerKind } from '../sync/queries.js';
import { centsToMoney, dashboardFigures, oldestAwaitingRows, overdueFigures, recentlyChangedRows, upcomingEventRows } from './queries.js';

/** How much each block shows. */
const UPCOMING_SHOWN = 8;
const AWAITING_SHOWN = 5;
/** The last calendar day a date column holds: "any later day". */
const LAST_DAY = '9999-12-31';
const SPEND_MONTHS = 12;
const RECENT_SHOWN = 8;

/**
 * Everything the dashboard shows, in one statement (one round trip) of five parts: every number (counts, the
 * upcoming count, the awaiting count and total, the spend per month, the last two kept as payment totals) in one
 * UNION ALL of index reads, then the upcoming events, the oldest awaiting payments with their owners' names, the last
 * sync per kind and the recent changes, each an indexed read with a small limit, so the page's cost does not grow
 * with the data (nor with the rows it shows).
 * `timeZone` decides which calendar day is "today" for the visitor.
 */
export async function getDashboard(ctx: AppContext, timeZone: string): Promise<Dashboard> {
  const today = dayInZone(ctx.clock.now(), timeZone);
  const until = addDays(today, UPCOMING_DAYS);
  const months = monthsUpTo(monthOfDay(today), SPEND_MONTHS);
  const [figures, upcoming, awaiting, lastRuns, recent, overdue, after] = await readParts(ctx.db, [
    dashboardFigures(ctx.db, {
      countCodes: STATS_CODES,
      upcoming: { from: today, until },
      paymentBuckets: [AWAITING_BUCKET, ...months.map(spendBucket)],
    }),
    upcomingEventRows(ctx.db, today, until, UPCOMING_SHOWN),
    oldestAwaitingRows(ctx.db, AWAITING_STATUSES, AWAITING_SHOWN),
    latestRunPerKind(ctx.db, SYNC_KINDS),
    recentlyChangedRows(ctx.db, RECORD_TYPES, RECENT_SHOWN),
    overdueFigures(ctx.db, today),
    // The first event after the window, for an empty window to point to.
    upcomingEventRows(ctx.db, addDays(until, 1), LAST_DAY, 1),
  ] as const);
  const nextEvent = after[0];

  const awaitingTotal = figures.payments.get(AWAITING_BUCKET);
  return {
    today,
    stats: statsOfCounts(figures.counts),
    upcomingEvents: {
      until,
      total: figures.upcoming,
      next: nextEvent
        ? { id: Number(nextEvent.id), eventName: String(nextEvent.eventName), eventStartDate: String(nextEvent.eventStartDate) }
        : null,
      items: upcoming.map((row) => ({
        id: Number(row.id),
        eventName: String(row.eventName),
        eventStartDate: String(row.eventStartDate),
        eventEndDate: (row.eventEndDate as string | null) ?? null,
        locationState: (row.locationState as string | null) ?? null,
        featuredRace: Boolean(row.featuredRace),
      })),
    },
    awaitingPayment: {
      count: awaitingTotal?.count ?? 0,
      total: centsToMoney(awaitingTotal?.cents ?? 0),
      overdue: { count: overdue.count, total: centsToMoney(overdue.cents) },
      oldest: awaiting.map((row) => ({
        id: Number(row.id),
        description: String(row.description),
        amount: String(row.amount),
        paymentDate: (row.paymentDate as string | null) ?? null,
        invoiceStatus: String(row.invoiceStatus),
        owner: { type: row.entityType as RecordType, id: Number(row.entityId), name: row.ownerName },
      })),
    },
    advertisingSpend: months.map((month) => ({ month, total: centsToMoney(figures.payments.get(spendBucket(month))?.cents ?? 0) })),
    lastSyncs: latestRunsOf(lastRuns),
    recentlyChanged: recent,
  };
}
