import type { Knex } from 'knex';
import { decodeRow } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { RECORD_TYPE_INFO, type RecordType } from '@shared/record-types.js';

type Db = Knex | Knex.Transaction;
type RawRow = Record<string, unknown>;

/** The columns a record is called by, in reading order. */
const NAME_COLUMNS: Readonly<Record<RecordType, readonly string[]>> = {
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
const SUM_CENTS_AS_CENTS = 'COALESCE(SUM(ROUND(?? * 100)), 0) AS cents';

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

/**
 * Payments whose invoice is still to be paid: their number, exact total and the oldest (undated last). The oldest
 * are read per status, each in the order of the (invoiceStatus, paymentDate) index, and merged here, so no read
 * sorts every awaiting payment.
 */
export async function awaitingPaymentRows(db: Db, statuses: readonly string[], limit: number) {
  const columns = ['id', 'description', 'amount', 'paymentDate', 'invoiceStatus', 'entityType', 'entityId'];
  const byDate = [
    { column: 'paymentDate', order: 'asc' as const },
    { column: 'id', order: 'asc' as const },
  ];
  const [summary, undated, ...dated] = await Promise.all([
    db('payments')
      .whereIn('invoiceStatus', statuses)
      .select(db.raw('COUNT(*) AS n'), db.raw(SUM_CENTS_AS_CENTS, ['amount']))
      .first() as Promise<{ n: number | string; cents: number | string | null } | undefined>,
    db('payments').whereIn('invoiceStatus', statuses).whereNull('paymentDate').select(columns).orderBy('id').limit(limit) as Promise<
      RawRow[]
    >,
    ...statuses.map(
      (status) =>
        db('payments').where('invoiceStatus', status).whereNotNull('paymentDate').select(columns).orderBy(byDate).limit(limit) as Promise<
          RawRow[]
        >,
    ),
  ]);
  const rows = dated
    .flat()
    .map((row) => decodeRow<RawRow>(columnKinds.payments, row))
    .sort((a, b) =>
      a.paymentDate === b.paymentDate ? Number(a.id) - Number(b.id) : String(a.paymentDate) < String(b.paymentDate) ? -1 : 1,
    )
    .concat(undated.map((row) => decodeRow<RawRow>(columnKinds.payments, row)))
    .slice(0, limit);
  return { count: Number(summary?.n ?? 0), total: centsToMoney(Number(summary?.cents ?? 0)), rows };
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
    .select('paymentDate', db.raw(SUM_CENTS_AS_CENTS, ['amount']))) as RawRow[];
  return rows.map((row) => ({
    day: decodeRow<{ paymentDate: string }>(columnKinds.payments, { paymentDate: row.paymentDate }).paymentDate,
    cents: Number(row.cents ?? 0),
  }));
}

/**
 * The most recently changed records of every type in one query: each type's newest rows come from its updatedAt
 * index (a LIMIT inside a derived table, which both SQLite and MySQL accept), then the union is cut to `limit`.
 */
export async function recentlyChangedRows(db: Db, types: readonly RecordType[], limit: number) {
  const widest = Math.max(...types.map((type) => NAME_COLUMNS[type].length));
  const parts = types.map((type) => {
    const names = Array.from({ length: widest }, (_, index) => NAME_COLUMNS[type][index]);
    const columns = names.map((column, index) => (column ? `?? AS name${index}` : `NULL AS name${index}`)).join(', ');
    return {
      sql: `SELECT * FROM (SELECT ? AS type, id, updatedAt, ${columns} FROM ?? ORDER BY updatedAt DESC, id DESC LIMIT ?) AS ??`,
      bindings: [
        type,
        ...names.filter((name): name is string => name !== undefined),
        RECORD_TYPE_INFO[type].table,
        limit,
        `recent_${type}`,
      ],
    };
  });
  const union = ['(', parts.map((part) => part.sql).join(' UNION ALL '), ') AS recent'].join('');
  const rows = (await db
    .select('*')
    .from(
      db.raw(
        union,
        parts.flatMap((part) => part.bindings),
      ),
    )
    // Records of different types may share a change time and an id: the type settles it the same way everywhere.
    .orderBy([
      { column: 'updatedAt', order: 'desc' },
      { column: 'id', order: 'desc' },
      { column: 'type', order: 'asc' },
    ])
    .limit(limit)) as RawRow[];
  return rows.map((row) => {
    const type = row.type as RecordType;
    const parts = Array.from({ length: widest }, (_, index) => row[`name${index}`]).filter(
      (part) => part !== null && part !== undefined && part !== '',
    );
    return {
      type,
      id: Number(row.id),
      name: parts.join(' '),
      updatedAt: decodeRow<{ updatedAt: string }>(columnKinds[RECORD_TYPE_INFO[type].table], { updatedAt: row.updatedAt }).updatedAt,
    };
  });
}
