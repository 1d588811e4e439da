import type { Knex } from 'knex';
import { decodeRow } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import type { StatementPart } from '@db/statement-parts.js';
import { RECORD_TYPE_INFO, RECORD_TYPES, type RecordType } from '@shared/record-types.js';
import { ALL_BUCKET } from '../records/definitions.js';
import { PAYMENT_TOTALS } from '../payments/totals.js';
import { COUNTS } from '../records/derived.js';

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

export function centsToMoney(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const whole = Math.abs(Math.round(cents));
  return `${sign}${Math.trunc(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}

/** What `dashboardFigures` reads. */
export interface FigureRanges {
  /** The record_counts kinds whose 'all' bucket is read. */
  countCodes: readonly number[];
  upcoming: { from: string; until: string };
  /** The payment_totals buckets read. */
  paymentBuckets: readonly string[];
}

/**
 * Every number the dashboard shows, in one part (a UNION ALL): the six record counts and the payment totals
 * (awaiting payment, spend per month) from the totals the services keep, by primary key, and the events starting in
 * the upcoming window, counted over the eventStartDate index.
 */
export function dashboardFigures(db: Db, ranges: FigureRanges): StatementPart<ReturnType<typeof figuresOf>> {
  const part = (name: string) => db.raw('? AS part', [name]);
  const statement = db(COUNTS)
    .whereIn('kind', ranges.countCodes)
    .andWhere('bucket', ALL_BUCKET)
    .select(part('count'), 'kind AS code', 'bucket', 'total AS n', db.raw('0 AS cents'))
    .unionAll([
      db('events')
        .where('eventStartDate', '>=', ranges.upcoming.from)
        .andWhere('eventStartDate', '<=', ranges.upcoming.until)
        .select(part('upcoming'), db.raw('0'), db.raw("''"), db.raw('COUNT(*)'), db.raw('0')),
      db(PAYMENT_TOTALS).whereIn('bucket', ranges.paymentBuckets).select(part('payments'), db.raw('0'), 'bucket', 'payments', 'cents'),
    ]);
  return {
    query: statement,
    columns: ['part', 'code', 'bucket', 'n', 'cents'],
    decode: (rows) => figuresOf(rows as unknown as FigureRow[], ranges),
  };
}

interface FigureRow {
  part: string;
  code: number | string;
  bucket: string;
  n: number | string;
  cents: number | string;
}

function figuresOf(rows: readonly FigureRow[], ranges: FigureRanges) {
  const counts = new Map<number, Map<string, number>>(ranges.countCodes.map((code) => [code, new Map()]));
  const payments = new Map<string, { count: number; cents: number }>();
  let upcoming = 0;
  for (const row of rows) {
    if (row.part === 'count') counts.get(Number(row.code))?.set(row.bucket, Number(row.n));
    else if (row.part === 'upcoming') upcoming = Number(row.n);
    else payments.set(row.bucket, { count: Number(row.n), cents: Number(row.cents) });
  }
  return { counts, upcoming, payments };
}

/**
 * The payments past due on `today`: marked overdue, or still pending with a payment date before today; their count
 * and exact sum in cents, from the (invoiceStatus, paymentDate, amount) index.
 */
export function overdueFigures(db: Db, today: string): StatementPart<{ count: number; cents: number }> {
  const query = db('payments')
    .where('invoiceStatus', 'overdue')
    .orWhere((pending) => pending.where('invoiceStatus', 'pending').andWhere('paymentDate', '<', today))
    .select(db.raw('COUNT(*) AS ??', ['n']), db.raw('COALESCE(SUM(ROUND(amount * 100)), 0) AS ??', ['cents']));
  return {
    query,
    columns: ['n', 'cents'],
    decode: (rows) => ({ count: Number(rows[0]?.n ?? 0), cents: Number(rows[0]?.cents ?? 0) }),
  };
}

/** Events starting from `from` to `until` (both included), soonest first; on the eventStartDate index. */
export function upcomingEventRows(db: Db, from: string, until: string, limit: number): StatementPart<RawRow[]> {
  const columns = ['id', 'eventName', 'eventStartDate', 'eventEndDate', 'locationState', 'featuredRace'];
  const query = db('events')
    .where('eventStartDate', '>=', from)
    .andWhere('eventStartDate', '<=', until)
    .select(columns)
    .orderBy([
      { column: 'eventStartDate', order: 'asc' },
      { column: 'id', order: 'asc' },
    ])
    .limit(limit);
  return {
    query,
    columns,
    decode: (rows) =>
      rows
        .map((row) => decodeRow<RawRow>(columnKinds.events, row))
        .sort((a, b) => compareText(a.eventStartDate, b.eventStartDate) || Number(a.id) - Number(b.id)),
  };
}

/** Text order as both databases sort these columns (dates and timestamps as 'YYYY-MM-DD…' text, plain ASCII words). */
const compareText = (a: unknown, b: unknown) => {
  const [left, right] = [String(a), String(b)];
  return left < right ? -1 : left > right ? 1 : 0;
};

/**
 * The oldest payments whose invoice is still to be paid (undated last), with their owners' names, in one statement:
 * the oldest dated and the undated of each status come from the (invoiceStatus, paymentDate, id) index in its order, each a
 * LIMIT inside a derived table (which both SQLite and MySQL accept); their union is ordered and cut to `limit`, and
 * the few rows left are joined to their owners by primary key. No read sorts every awaiting payment.
 */
export function oldestAwaitingRows(
  db: Db,
  statuses: readonly string[],
  limit: number,
): StatementPart<Array<RawRow & { ownerName: string | null }>> {
  const columns = ['id', 'description', 'amount', 'paymentDate', 'invoiceStatus', 'entityType', 'entityId'];
  // Per status: the dated oldest, then the undated (NULL dates sort first in the index, so they are a range of their own).
  const parts = statuses.flatMap((status, index) => [
    {
      sql: 'SELECT * FROM (SELECT ?? FROM payments WHERE invoiceStatus = ? AND paymentDate IS NOT NULL ORDER BY paymentDate, id LIMIT ?) AS ??',
      bindings: [[...columns], status, limit, `dated_${index}`] as Knex.RawBinding[],
    },
    {
      sql: 'SELECT * FROM (SELECT ?? FROM payments WHERE invoiceStatus = ? AND paymentDate IS NULL ORDER BY id LIMIT ?) AS ??',
      bindings: [[...columns], status, limit, `undated_${index}`] as Knex.RawBinding[],
    },
  ]);
  const query = db
    .from(
      db.raw(
        ['(', parts.map((part) => part.sql).join(' UNION ALL '), ') AS awaiting'].join(''),
        parts.flatMap((part) => part.bindings),
      ),
    )
    .select(columns.map((column) => `awaiting.${column}`));
  const ownerColumns = RECORD_TYPES.flatMap((type) => NAME_COLUMNS[type].map((column) => `${type}_${column}`));
  for (const type of RECORD_TYPES) {
    const owner = `owner_${type}`;
    query
      .leftJoin(`${RECORD_TYPE_INFO[type].table} AS ${owner}`, function joinOwner() {
        this.on(`${owner}.id`, '=', 'awaiting.entityId').andOn('awaiting.entityType', '=', db.raw('?', [type]));
      })
      .select(NAME_COLUMNS[type].map((column) => `${owner}.${column} AS ${type}_${column}`));
  }
  query
    .orderByRaw('CASE WHEN awaiting.paymentDate IS NULL THEN 1 ELSE 0 END')
    .orderBy([
      { column: 'awaiting.paymentDate', order: 'asc' },
      { column: 'awaiting.id', order: 'asc' },
    ])
    .limit(limit);
  const decode = (row: RawRow) => {
    const type = row.entityType as RecordType;
    const names = Object.fromEntries(NAME_COLUMNS[type].map((column) => [column, row[`${type}_${column}`]]));
    const hasOwner = NAME_COLUMNS[type].some((column) => row[`${type}_${column}`] !== null && row[`${type}_${column}`] !== undefined);
    return {
      ...decodeRow<RawRow>(columnKinds.payments, pick(row, columns)),
      ownerName: hasOwner ? nameOf(type, names) : null,
    } as RawRow & { ownerName: string | null };
  };
  return {
    query,
    columns: [...columns, ...ownerColumns],
    // Undated last, then the oldest date first, then by id: the query's order.
    decode: (rows) =>
      rows
        .map(decode)
        .sort(
          (a, b) =>
            Number(a.paymentDate === null) - Number(b.paymentDate === null) ||
            compareText(a.paymentDate, b.paymentDate) ||
            Number(a.id) - Number(b.id),
        ),
  };
}

const pick = (row: RawRow, columns: readonly string[]): RawRow => Object.fromEntries(columns.map((column) => [column, row[column]]));

/**
 * The most recently changed records of every type in one query: each type's newest rows come from its updatedAt
 * index (a LIMIT inside a derived table, which both SQLite and MySQL accept), then the union is cut to `limit`.
 */
export function recentlyChangedRows(
  db: Db,
  types: readonly RecordType[],
  limit: number,
): StatementPart<Array<{ type: RecordType; id: number; name: string; updatedAt: string }>> {
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
  const query = db
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
    .limit(limit);
  const decode = (row: RawRow) => {
    const type = row.type as RecordType;
    const parts = Array.from({ length: widest }, (_, index) => row[`name${index}`]).filter(
      (part) => part !== null && part !== undefined && part !== '',
    );
    return {
      type,
      id: Number(row.id),
      name: parts.join(' '),
      changed: String(row.updatedAt),
      updatedAt: decodeRow<{ updatedAt: string }>(columnKinds[RECORD_TYPE_INFO[type].table], { updatedAt: row.updatedAt }).updatedAt,
    };
  };
  return {
    query,
    columns: ['type', 'id', 'updatedAt', ...Array.from({ length: widest }, (_, index) => `name${index}`)],
    decode: (rows) =>
      rows
        .map(decode)
        .sort((a, b) => compareText(b.changed, a.changed) || b.id - a.id || compareText(a.type, b.type))
        .map(({ changed: _changed, ...row }) => row),
  };
}
