import type { Knex } from 'knex';
import { decodeRow } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { RECORD_TYPE_INFO, type RecordType } from '@shared/record-types.js';

type Db = Knex | Knex.Transaction;
type RawRow = Record<string, unknown>;

/** The columns a record is called by, in reading order. */
export const NAME_COLUMNS: Readonly<Record<RecordType, readonly string[]>> = {
  event: ['eventName'],
  professional: ['businessName'],
  runclub: ['clubName'],
  brand: ['brandName'],
  media: ['mediaName'],
  influencer: ['firstName', 'lastName'],
};

const nameOf = (type: RecordType, row: RawRow) =>
  NAME_COLUMNS[type]
    .map((column) => row[column])
    .filter((part) => part !== null && part !== undefined && part !== '')
    .join(' ');

/**
 * Money summed in SQL as whole cents: exact on MySQL's DECIMAL, and on SQLite's float column too, since every
 * rounded amount is a whole number well inside a double's exact range.
 */
const SUM_CENTS = 'COALESCE(SUM(ROUND(?? * 100)), 0)';

export function centsToMoney(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const whole = Math.abs(Math.round(cents));
  return `${sign}${Math.trunc(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}

/** Events starting from `from` to `until` (both included), soonest first; on the eventStartDate index. */
export async function upcomingEventRows(db: Db, from: string, until: string, limit: number) {
  const range = () => db('events').where('eventStartDate', '>=', from).andWhere('eventStartDate', '<=', until);
  const [rows, count] = await Promise.all([
    range()
      .select('id', 'eventName', 'eventStartDate', 'eventEndDate', 'locationState', 'featuredRace')
      .orderBy([
        { column: 'eventStartDate', order: 'asc' },
        { column: 'id', order: 'asc' },
      ])
      .limit(limit) as Promise<RawRow[]>,
    range().count({ n: '*' }).first() as Promise<{ n: number | string } | undefined>,
  ]);
  return { rows: rows.map((row) => decodeRow<RawRow>(columnKinds.events, row)), total: Number(count?.n ?? 0) };
}

/** Payments whose invoice is still to be paid: their number, exact total and the oldest (undated last). */
export async function awaitingPaymentRows(db: Db, statuses: readonly string[], limit: number) {
  const awaiting = () => db('payments').whereIn('invoiceStatus', statuses);
  const [summary, rows] = await Promise.all([
    awaiting()
      .select(db.raw('COUNT(*) AS n'), db.raw(`${SUM_CENTS} AS cents`, ['amount']))
      .first() as Promise<{ n: number | string; cents: number | string | null } | undefined>,
    awaiting()
      .select('id', 'description', 'amount', 'paymentDate', 'invoiceStatus', 'entityType', 'entityId')
      .orderByRaw('CASE WHEN ?? IS NULL THEN 1 ELSE 0 END', ['paymentDate'])
      .orderBy([
        { column: 'paymentDate', order: 'asc' },
        { column: 'id', order: 'asc' },
      ])
      .limit(limit) as Promise<RawRow[]>,
  ]);
  return {
    count: Number(summary?.n ?? 0),
    total: centsToMoney(Number(summary?.cents ?? 0)),
    rows: rows.map((row) => decodeRow<RawRow>(columnKinds.payments, row)),
  };
}

/** The names of a few records, one query per type asked for (never one per record). */
export async function recordNames(db: Db, wanted: ReadonlyArray<{ type: RecordType; id: number }>): Promise<Map<string, string>> {
  const byType = new Map<RecordType, number[]>();
  for (const { type, id } of wanted) byType.set(type, [...(byType.get(type) ?? []), id]);
  const names = new Map<string, string>();
  await Promise.all(
    [...byType].map(async ([type, ids]) => {
      const rows = (await db(RECORD_TYPE_INFO[type].table)
        .whereIn('id', ids)
        .select('id', ...NAME_COLUMNS[type])) as RawRow[];
      for (const row of rows) names.set(`${type}:${Number(row.id)}`, nameOf(type, row));
    }),
  );
  return names;
}

/** Cents paid per day between two days (both included) by the given owner types; on the paymentDate index. */
export async function spendPerDay(db: Db, ownerTypes: readonly RecordType[], from: string, until: string) {
  const rows = (await db('payments')
    .whereIn('entityType', ownerTypes)
    .andWhere('paymentDate', '>=', from)
    .andWhere('paymentDate', '<=', until)
    .groupBy('paymentDate')
    .select('paymentDate', db.raw(`${SUM_CENTS} AS cents`, ['amount']))) as RawRow[];
  return rows.map((row) => ({
    day: decodeRow<{ paymentDate: string }>(columnKinds.payments, { paymentDate: row.paymentDate }).paymentDate,
    cents: Number(row.cents ?? 0),
  }));
}

/** The most recently changed records of one type, on its updatedAt index. */
export async function recentlyChangedRows(db: Db, type: RecordType, limit: number) {
  const rows = (await db(RECORD_TYPE_INFO[type].table)
    .select('id', 'updatedAt', ...NAME_COLUMNS[type])
    .orderBy([
      { column: 'updatedAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)) as RawRow[];
  return rows.map((row) => ({
    type,
    id: Number(row.id),
    name: nameOf(type, row),
    updatedAt: decodeRow<{ updatedAt: string }>(columnKinds[RECORD_TYPE_INFO[type].table], { updatedAt: row.updatedAt }).updatedAt,
  }));
}
