import { addDays, dayInZone, monthOfDay, monthsUpTo } from '@shared/calendar.js';
import { RECORD_TYPES, type RecordType } from '@shared/record-types.js';
import { UPCOMING_DAYS, type Dashboard } from '@shared/schemas/dashboard.js';
import type { AppContext } from '../context.js';
import { OWNER_TOTAL_COLUMN } from '../payments/queries.js';
import { getStats } from '../stats/service.js';
import { latestRuns } from '../sync/service.js';
import { awaitingPaymentRows, centsToMoney, recentlyChangedRows, recordNames, spendPerDay, upcomingEventRows } from './queries.js';

/** How much each block shows. */
const UPCOMING_SHOWN = 8;
const AWAITING_SHOWN = 5;
const SPEND_MONTHS = 12;
const RECENT_SHOWN = 8;
/** Invoices still to be paid. */
const AWAITING_STATUSES = ['pending', 'overdue'] as const;
/** The owners whose payments are advertising spend: those that keep a totalAdvertisingSpend. */
const ADVERTISING_OWNERS = RECORD_TYPES.filter((type) => OWNER_TOTAL_COLUMN[type] === 'totalAdvertisingSpend');

/**
 * Everything the dashboard shows, in one call: each block is one or two indexed queries with a small limit
 * (owner names are one query per type among the few rows shown), so its cost does not grow with the data.
 * `timeZone` decides which calendar day is "today" for the visitor.
 */
export async function getDashboard(ctx: AppContext, timeZone: string): Promise<Dashboard> {
  const today = dayInZone(ctx.clock.now(), timeZone);
  const until = addDays(today, UPCOMING_DAYS);
  const months = monthsUpTo(monthOfDay(today), SPEND_MONTHS);
  const [stats, upcoming, awaiting, spendDays, lastSyncs, recent] = await Promise.all([
    getStats(ctx),
    upcomingEventRows(ctx.db, today, until, UPCOMING_SHOWN),
    awaitingPaymentRows(ctx.db, AWAITING_STATUSES, AWAITING_SHOWN),
    spendPerDay(ctx.db, ADVERTISING_OWNERS, `${months[0]}-01`, today),
    latestRuns(ctx),
    recentlyChangedRows(ctx.db, RECORD_TYPES, RECENT_SHOWN),
  ]);
  const owners = await recordNames(
    ctx.db,
    awaiting.rows.map((row) => ({ type: row.entityType as RecordType, id: Number(row.entityId) })),
  );

  const centsPerMonth = new Map<string, number>(months.map((month) => [month, 0]));
  for (const { day, cents } of spendDays) {
    const month = monthOfDay(day);
    if (centsPerMonth.has(month)) centsPerMonth.set(month, centsPerMonth.get(month)! + cents);
  }

  return {
    today,
    stats,
    upcomingEvents: {
      until,
      total: upcoming.total,
      items: upcoming.rows.map((row) => ({
        id: Number(row.id),
        eventName: String(row.eventName),
        eventStartDate: String(row.eventStartDate),
        eventEndDate: (row.eventEndDate as string | null) ?? null,
        locationState: (row.locationState as string | null) ?? null,
        featuredRace: Boolean(row.featuredRace),
      })),
    },
    awaitingPayment: {
      count: awaiting.count,
      total: awaiting.total,
      oldest: awaiting.rows.map((row) => {
        const type = row.entityType as RecordType;
        const id = Number(row.entityId);
        return {
          id: Number(row.id),
          description: String(row.description),
          amount: String(row.amount),
          paymentDate: (row.paymentDate as string | null) ?? null,
          invoiceStatus: String(row.invoiceStatus),
          owner: { type, id, name: owners.get(`${type}:${id}`) ?? null },
        };
      }),
    },
    advertisingSpend: [...centsPerMonth].map(([month, cents]) => ({ month, total: centsToMoney(cents) })),
    lastSyncs,
    recentlyChanged: recent,
  };
}
