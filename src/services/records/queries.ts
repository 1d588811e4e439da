import type { Knex } from 'knex';
import { decodeRow, decodeRows } from '@db/codecs.js';
import { selectBuilt, selectByShape, selectRows } from '@db/statements.js';
import { isTransaction } from '@db/transaction.js';
import { columnKinds } from '@db/columns.js';
import type { EventDistance, RunClubSchedule } from '@shared/schemas/records.js';
import { ALL_BUCKET, type IndexedDefinition, type RecordDefinition, type SortSpec } from './definitions.js';
import { bucketPattern, CHANGES_BUCKET, COUNTS, DOCS, GRAMS } from './derived.js';
import { codePointLength, GRAM_LENGTH, gramsOf, normaliseSearchText } from './search-text.js';
import { asBitmap, BITMAP_BYTES, decodeBlock } from './postings.js';

type Db = Knex | Knex.Transaction;
type RawRow = Record<string, unknown>;

/**
 * How many of a gram's posting rows (blocks of 256 records) are read to estimate its postings when choosing the
 * rarest grams: every row up to a million records of a type, enough to tell common grams apart; the estimates are
 * kept for a few minutes, so the counting is paid once per gram, not per search.
 */
const ESTIMATE_BOUND = 4_096;
/** How long a gram's posting count is reused for choosing (it never decides a result, only the plan). */
const GRAM_STATS_TTL_MS = 5 * 60_000;
const GRAM_STATS_MAX = 100_000;
/** Grams probed for their frequency per query. */
const GRAMS_PROBED = 8;
/** Of those, the rarest whose postings are read and intersected: each one more narrows the candidates less. */
const GRAMS_INTERSECTED = 3;
/** A gram is intersected with the rarest only while it has at most this many times its postings. */
const INTERSECT_UP_TO = 4;

export const decodeRecord = <T>(definition: RecordDefinition, row: RawRow): T => decodeRow<T>(definition.columns, row);
/** A page of rows of one query; `omit` names helper columns (inline totals) that are not part of a record. */
export const decodeRecords = <T>(definition: RecordDefinition, rows: readonly RawRow[], omit?: readonly string[]): T[] =>
  decodeRows<T>(definition.columns, rows, omit);

export async function findRecordRow(db: Db, definition: RecordDefinition, id: number, options: { forUpdate?: boolean } = {}) {
  const query = db(definition.table).where({ id }).first();
  if (options.forUpdate) query.forUpdate();
  return (await query) as RawRow | undefined;
}

/** The rows of the given ids (in no particular order), locked for update: a bulk write checks them first. */
export async function findRecordRows(db: Db, definition: RecordDefinition, ids: readonly number[]): Promise<RawRow[]> {
  return (await db(definition.table)
    .whereIn('id', [...ids])
    .forUpdate()) as RawRow[];
}

export async function eventDistances(db: Db, eventId: number): Promise<EventDistance[]> {
  const rows = (await db('event_distances')
    .where({ eventId })
    .orderBy([
      { column: 'distanceKm', order: 'asc' },
      { column: 'id', order: 'asc' },
    ])) as RawRow[];
  return rows.map((row) => decodeRow<EventDistance>(columnKinds.event_distances, row));
}

export async function runClubSchedules(db: Db, clubId: number): Promise<RunClubSchedule[]> {
  const rows = (await db('run_club_schedules').where({ clubId }).orderBy('id')) as RawRow[];
  return rows.map((row) => decodeRow<RunClubSchedule>(columnKinds.run_club_schedules, row));
}

/** The maintained totals of a type: bucket name → count (a bucket without a row has no records). */
export async function readCounts(db: Db, codes: readonly number[]): Promise<Map<number, Map<string, number>>> {
  const rows = await selectBuilt<{ kind: number; bucket: string; total: number | string }>(
    db,
    db(COUNTS).whereIn('kind', codes).select('kind', 'bucket', 'total'),
  );
  const out = new Map<number, Map<string, number>>(codes.map((code) => [code, new Map()]));
  for (const row of rows) out.get(Number(row.kind))?.set(row.bucket, Number(row.total));
  return out;
}

export const countOf = (counts: Map<string, number> | undefined, bucket = ALL_BUCKET) => counts?.get(bucket) ?? 0;

/** A filter answered from the search documents' buckets, so a search never needs the record rows to filter. */
export interface BucketFilter {
  bucket: string;
  present: boolean;
}

export interface Matches {
  /** What was searched (the normalised text and the filter), for remembering totals. */
  key: string;
  /** Selects `recordId` of every matching record. */
  subquery: Knex.QueryBuilder;
  /** The indexed column that lists the matches newest first (descending), so a page can stop early. */
  idColumn: string;
  /**
   * The same, checking only the newest `count` candidates (all of them when null): a page of the newest matches
   * needs a few more candidates than rows, not every candidate of a common term.
   */
  newestCandidates(count: number): Knex.QueryBuilder | null;
  /**
   * The type's change number when its candidates were read from the postings (absent for a scan): the matches are
   * exact only while the statement that uses them reads the same number.
   */
  candidatesAt?: number;
}

/**
 * The records (or contacts) whose search text contains `query` (case-insensitive), or null when none can. A query of
 * three or more characters reads the postings of its rarest trigrams (found with bounded counts), intersects them
 * here, and checks each remaining candidate's text exactly; shorter ones scan the compact text table. Returned
 * wrapped: a query builder is a thenable, so returning it bare from an async function would run it.
 */
export async function matchingIds(db: Db, definition: IndexedDefinition, query: string, filter?: BucketFilter): Promise<Matches | null> {
  const [matches] = await matchingIdsOfKinds(db, [definition.code], query, filter);
  return matches!;
}

/**
 * No match as long as the type's change number (bucket #changes of record_counts) is still `noneUnlessChanged`: one of the
 * query's grams had no posting when it was counted with that number. The caller reads the number in the statement
 * that uses the answer and asks again (`matchingIdsOfKinds` without `remembered`) when it differs.
 */
export interface NoMatchUnlessChanged {
  noneUnlessChanged: number;
}

/**
 * The same for several types at once (the global search): their grams' posting counts come in one round trip, and
 * their postings in another. With `remembered`, for a caller that checks change numbers: a type one of whose grams
 * was counted without postings at a change number that is still read here is answered as NoMatchUnlessChanged
 * without asking the database, and a type's candidates read for the same query before are used again with the
 * change number they were read at (`candidatesAt`), so a repeated term costs no round trip before its statement.
 */
export async function matchingIdsOfKinds(
  db: Db,
  codes: readonly number[],
  query: string,
  filter?: BucketFilter,
): Promise<Array<Matches | null>>;
export async function matchingIdsOfKinds(
  db: Db,
  codes: readonly number[],
  query: string,
  filter: BucketFilter | undefined,
  options: { remembered: true },
): Promise<Array<Matches | NoMatchUnlessChanged | null>>;
export async function matchingIdsOfKinds(
  db: Db,
  codes: readonly number[],
  query: string,
  filter?: BucketFilter,
  options: { remembered?: boolean } = {},
): Promise<Array<Matches | NoMatchUnlessChanged | null>> {
  const needle = normaliseSearchText(query);
  const key = filter ? `${needle}\u0000${filter.present ? '+' : '-'}${filter.bucket}` : needle;
  const exact = (builder: Knex.QueryBuilder) => {
    builder.whereRaw('INSTR(??, ?) > 0', ['d.text', needle]);
    if (filter) builder.where('d.buckets', filter.present ? 'like' : 'not like', bucketPattern(filter.bucket));
    return builder;
  };
  if (codePointLength(needle) < GRAM_LENGTH) {
    return codes.map((code) => ({
      key,
      subquery: exact(db(`${DOCS} as d`).where('d.kind', code).select('d.recordId as recordId')),
      idColumn: 'd.recordId',
      newestCandidates: () => null,
    }));
  }

  const probed = spread(gramsOf(needle), GRAMS_PROBED);
  const estimates = await postingCounts(
    db,
    codes.flatMap((code) => probed.map((gram) => [code, gram] as const)),
    options.remembered === true,
  );
  const plans = codes.map((code, k): NoMatchUnlessChanged | number[] | null => {
    const counts = estimates.slice(k * probed.length, (k + 1) * probed.length);
    const none = counts.find((count) => count.n === 0 && count.changes !== undefined);
    if (none) return { noneUnlessChanged: none.changes! };
    const rarest = counts.map(({ n }, i) => ({ n, gram: probed[i]! })).sort((a, b) => a.n - b.n);
    if (rarest[0]!.n === 0) return null;
    // A gram far more common than the rarest would cost more to read than it saves in candidates to check.
    const worth = rarest.filter(({ n }, i) => i === 0 || n <= rarest[0]!.n * INTERSECT_UP_TO);
    return worth.slice(0, GRAMS_INTERSECTED).map(({ gram }) => gram);
  });
  const lists = candidateListsOf(db);
  const listKey = (code: number) => `${code}\u0000${needle}`;
  // Taken before any list is kept below (keeping one may start the lists over).
  const reused = new Map<number, CandidatesRead>();
  if (options.remembered === true) {
    codes.forEach((code, k) => {
      const kept = Array.isArray(plans[k]) ? lists.get(listKey(code)) : undefined;
      if (kept) reused.set(code, kept);
    });
  }
  const read = await candidatesOf(
    db,
    codes.flatMap((code, k) => {
      const plan = plans[k];
      return Array.isArray(plan) && !reused.has(code) ? [{ code, grams: plan }] : [];
    }),
  );
  // Kept only outside a transaction, which may still roll back what it read.
  if (!isTransaction(db)) for (const [code, candidates] of read) lists.keep(listKey(code), candidates);
  return codes.map((code, k) => {
    const plan = plans[k]!;
    if (!Array.isArray(plan)) return plan;
    const { ids, changes } = read.get(code) ?? reused.get(code)!;
    if (ids.length === 0) return null;
    // The ids are integers decoded here, so they go into the statement as digits (a common gram has thousands).
    const among = (candidates: readonly number[]) =>
      exact(
        db(`${DOCS} as d`)
          .where('d.kind', code)
          .whereRaw(`d.recordId IN (${candidates.join(',')})`)
          .select('d.recordId as recordId'),
      );
    let all: Knex.QueryBuilder | undefined;
    return {
      key,
      // Built when used: with its total remembered, a common term's global search reads only its newest candidates.
      get subquery() {
        return (all ??= among(ids));
      },
      idColumn: 'd.recordId',
      newestCandidates: (count: number) => (count < ids.length ? among(ids.slice(ids.length - count)) : null),
      candidatesAt: changes,
    };
  });
}

/** A type's candidates for a query (ascending ids) and its change number when they were read. */
interface CandidatesRead {
  ids: number[];
  changes: number;
}
/**
 * Candidate lists kept per process, by type and query (a palette asks for the same term again and again): lists of
 * up to 100,000 ids, 2,000 lists and 2 million ids (8 bytes each) in all; past either bound they start over.
 */
class CandidateLists {
  private readonly lists = new Map<string, CandidatesRead>();
  private ids = 0;

  get(key: string): CandidatesRead | undefined {
    return this.lists.get(key);
  }

  keep(key: string, candidates: CandidatesRead): void {
    // An empty list answers null, which no caller checks again: never kept.
    if (candidates.ids.length === 0 || candidates.ids.length > 100_000) return;
    this.ids -= this.lists.get(key)?.ids.length ?? 0;
    if (this.lists.size >= 2_000 || this.ids + candidates.ids.length > 2_000_000) {
      this.lists.clear();
      this.ids = 0;
    }
    this.lists.set(key, candidates);
    this.ids += candidates.ids.length;
  }
}
const candidateListsByDatabase = new WeakMap<object, CandidateLists>();

function candidateListsOf(db: Db): CandidateLists {
  const client = db.client as object;
  let lists = candidateListsByDatabase.get(client);
  if (!lists) candidateListsByDatabase.set(client, (lists = new CandidateLists()));
  return lists;
}

/**
 * For each type, the record ids in the postings of every one of its grams (ascending), with the type's change
 * number read in the same statement: the candidates a search checks exactly.
 */
async function candidatesOf(
  db: Db,
  wanted: ReadonlyArray<{ code: number; grams: readonly number[] }>,
): Promise<Map<number, CandidatesRead>> {
  const out = new Map<number, CandidatesRead>();
  if (wanted.length === 0) return out;
  const pairs = wanted.flatMap(({ code, grams }) => grams.map((gram) => `(${code},${gram})`));
  // Every type asked for has a posting of each of its grams (a count of zero ends a search before), so a row.
  const rows = (await db(`${GRAMS} as g`)
    .whereRaw(`(g.kind, g.gram) IN (${pairs.join(',')})`)
    .orderBy(['g.kind', 'g.gram', 'g.block'])
    .select(
      'g.kind',
      'g.gram',
      'g.block',
      'g.ids',
      db.raw('COALESCE((SELECT c.total FROM ?? AS c WHERE c.kind = g.kind AND c.bucket = ?), 0) AS changes', [COUNTS, CHANGES_BUCKET]),
    )) as Array<{ kind: number; gram: number; block: number; ids: Uint8Array; changes: number | string }>;
  // Each gram's stored values by block; the grams are intersected block by block, as bitmaps, so a common gram's
  // ids are never listed one by one.
  const blocksOf = new Map<string, Map<number, Uint8Array>>();
  const changesOf = new Map<number, number>();
  for (const row of rows) {
    changesOf.set(Number(row.kind), Number(row.changes));
    const key = `${row.kind}:${row.gram}`;
    let blocks = blocksOf.get(key);
    if (!blocks) blocksOf.set(key, (blocks = new Map()));
    blocks.set(Number(row.block), row.ids);
  }
  for (const { code, grams } of wanted) {
    const perGram = grams.map((gram) => blocksOf.get(`${code}:${gram}`) ?? new Map<number, Uint8Array>());
    out.set(code, { ids: intersectBlocks(perGram), changes: changesOf.get(code) ?? 0 });
  }
  return out;
}

/** The ids (ascending) in every gram's value of the same block: the blocks' bitmaps ANDed, then listed. */
function intersectBlocks(perGram: Array<Map<number, Uint8Array>>): number[] {
  const [fewest, ...others] = [...perGram].sort((a, b) => a.size - b.size);
  const out: number[] = [];
  const both = new Uint8Array(BITMAP_BYTES);
  const other = new Uint8Array(BITMAP_BYTES);
  for (const block of [...fewest!.keys()].sort((a, b) => a - b)) {
    asBitmap(fewest!.get(block)!, both);
    let left = true;
    for (const blocks of others) {
      const value = blocks.get(block);
      left = value !== undefined;
      if (!left) break;
      asBitmap(value!, other);
      let any = 0;
      for (let i = 0; i < BITMAP_BYTES; i++) {
        both[i] = both[i]! & other[i]!;
        any |= both[i]!;
      }
      left = any !== 0;
      if (!left) break;
    }
    if (left) decodeBlock(block, both, out);
  }
  return out;
}

/** Up to `max` items spread over the whole list, so long queries probe grams from start to end. */
function spread<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  return Array.from({ length: max }, (_, i) => items[Math.floor((i * (items.length - 1)) / (max - 1))]!);
}

/**
 * Planner statistics: how many postings each gram has (counted up to a bound), kept per process for a few minutes,
 * like a database's table statistics. A stale count can only pick a less selective gram; results stay exact
 * because every candidate is checked. Zero ends a search without a check, so it is kept with the type's change
 * number read in the statement that counted it (no posting can appear without that number growing, in the same
 * transaction), and only handed to a caller that checks the number again (`remembered`); a count read inside a
 * transaction is not kept as zero, since that transaction may still roll its changes back.
 */
interface GramStat {
  n: number;
  at: number;
  /** Set on a zero: the change number it was counted at. */
  changes?: number;
}
const gramStatsByDatabase = new WeakMap<object, Map<string, GramStat>>();

async function postingCounts(
  db: Db,
  pairs: ReadonlyArray<readonly [kind: number, gram: number]>,
  rememberedNone: boolean,
): Promise<Array<{ n: number; changes?: number }>> {
  // Keyed by the Knex client (Knex gives a transaction a client of its own, so what one counts stays with it).
  const client = db.client as object;
  const gramStats = gramStatsByDatabase.get(client) ?? new Map<string, GramStat>();
  gramStatsByDatabase.set(client, gramStats);
  const now = Date.now();
  const out = pairs.map(([kind, gram]): { n: number; changes?: number } | undefined => {
    const cached = gramStats.get(`${kind}:${gram}`);
    if (!cached) return undefined;
    if (cached.changes !== undefined) return rememberedNone ? { n: 0, changes: cached.changes } : undefined;
    return now - cached.at < GRAM_STATS_TTL_MS ? { n: cached.n } : undefined;
  });
  // A type with a remembered zero needs none of its other grams counted.
  const noneKinds = new Set(pairs.filter((_, i) => out[i]?.changes !== undefined).map(([kind]) => kind));
  const missing = pairs.flatMap((pair, i) => (out[i] === undefined && !noneKinds.has(pair[0]) ? [pair] : []));
  if (missing.length === 0) return out.map((count) => count ?? { n: Number.POSITIVE_INFINITY });
  const counted = await estimatePostings(db, missing, ESTIMATE_BOUND);
  if (gramStats.size > GRAM_STATS_MAX) gramStats.clear();
  const keepNone = !isTransaction(db);
  let next = 0;
  return out.map((count, i) => {
    if (count !== undefined) return count;
    const [kind, gram] = pairs[i]!;
    if (noneKinds.has(kind)) return { n: Number.POSITIVE_INFINITY };
    const fresh = counted[next++]!;
    if (fresh.n > 0) gramStats.set(`${kind}:${gram}`, { n: fresh.n, at: now });
    else if (keepNone) gramStats.set(`${kind}:${gram}`, { n: 0, at: now, changes: fresh.changes });
    return { n: fresh.n };
  });
}

/**
 * Postings per (kind, gram), estimated from up to `bound` of its rows (a row's length is its count of ids, or 32 for
 * a full bitmap), with the kind's change number, in one round trip.
 */
async function estimatePostings(
  db: Db,
  pairs: ReadonlyArray<readonly [number, number]>,
  bound: number,
): Promise<Array<{ n: number; changes: number }>> {
  const changes = changeNumberSql(0).sql;
  const part = `SELECT ? AS i, COALESCE(SUM(t.size), 0) AS n, ${changes} AS changes FROM (SELECT LENGTH(ids) AS size FROM ?? WHERE kind = ? AND gram = ? LIMIT ?) AS t`;
  const sql = pairs.map(() => part).join(' UNION ALL ');
  const bindings = pairs.flatMap(([kind, gram], i) => [i, ...changeNumberSql(kind).bindings, GRAMS, kind, gram, bound]);
  const result = await db.raw(sql, bindings);
  const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Array<{
    i: number | string;
    n: number | string;
    changes: number | string;
  }>;
  const out = pairs.map(() => ({ n: 0, changes: 0 }));
  for (const row of rows) out[Number(row.i)] = { n: Number(row.n), changes: Number(row.changes) };
  return out;
}

/**
 * Totals of searches, per process, each with the type's change number (bucket #changes of record_counts) read with
 * it: reused while the number is the same (no document of that type has changed since), so a common term is not
 * counted on every search.
 */
const searchTotalsByDatabase = new WeakMap<object, Map<string, { changes: number; total: number }>>();
const SEARCH_TOTALS_MAX = 10_000;

function searchTotals(db: Db) {
  const client = db.client as object;
  const totals = searchTotalsByDatabase.get(client) ?? new Map<string, { changes: number; total: number }>();
  searchTotalsByDatabase.set(client, totals);
  return totals;
}

/** A remembered total of a search and the change number it was counted at. */
export function rememberedTotal(db: Db, code: number, matches: Matches): { changes: number; total: number } | undefined {
  return searchTotals(db).get(`${code}\u0000${matches.key}`);
}

export function rememberTotal(db: Db, code: number, matches: Matches, changes: number, total: number): void {
  const totals = searchTotals(db);
  if (totals.size > SEARCH_TOTALS_MAX) totals.clear();
  totals.set(`${code}\u0000${matches.key}`, { changes, total });
}

/**
 * The newest `limit` matches (`recordId`), newest first: a derived table to join rows to. With `candidates`, only
 * that many of the newest candidates are checked, and `complete` says whether that was all of them: when it was
 * not and fewer than `limit` rows come back, the page must be read again without the bound.
 */
export function newestMatches(matches: Matches, limit: number, candidates?: number): { subquery: Knex.QueryBuilder; complete: boolean } {
  const bounded = candidates === undefined ? null : matches.newestCandidates(candidates);
  const source = bounded ?? matches.subquery;
  return {
    subquery: source.clone().clearSelect().select(`${matches.idColumn} as recordId`).orderBy(matches.idColumn, 'desc').limit(limit),
    complete: bounded === null,
  };
}

/** The change number of a type (0 before its first change) as a scalar subquery: SQL text and its bindings. */
export function changeNumberSql(code: number): { sql: string; bindings: Array<string | number> } {
  return { sql: 'COALESCE((SELECT total FROM ' + COUNTS + ' WHERE kind = ? AND bucket = ?), 0)', bindings: [code, CHANGES_BUCKET] };
}

/**
 * A list order: segments read one after another, each with its own condition and ORDER BY (events' "upcoming
 * first" is three: from today on ascending, then earlier descending, then undated). Each segment is one range of
 * one sort index, so no order sorts the table.
 */
interface SortSegment {
  where?: (builder: Knex.QueryBuilder) => void;
  order: SortSpec;
  /** Columns of `order` that are never NULL: a seek reads no NULL range of them. */
  notNull?: readonly string[];
  /**
   * How many leading columns of `order` the condition holds to one value (IS NULL): the ORDER BY leaves them out,
   * since MariaDB would sort `c IS NULL … ORDER BY c, id` (it only treats `c = value` as a constant).
   */
  fixed?: number;
}

/** The ORDER BY a segment is read with: its order without the columns its condition holds to one value. */
export const orderOfSegment = (segment: SortSegment): SortSpec => segment.order.slice(segment.fixed ?? 0);
export type SortPlan = readonly [SortSegment, ...SortSegment[]];

export interface PageRequest {
  where?: (builder: Knex.QueryBuilder) => void;
  /**
   * Names what `where` selects, values included ('featured'), so the first page's statement can be compiled once
   * and remembered (`selectByShape`); without it a statement with a `where` is built on every read.
   */
  whereKey?: string;
  sort: SortPlan;
  limit: number;
  offset: number;
  /** Read the rows after this position (keyset pagination) instead of skipping `offset` rows. */
  after?: SeekPosition;
}

/**
 * Where a walk of a list order stands: a row's segment of the order, its sort values (the order's columns before the
 * id, as stored) and its id. A cursor carries it (src/services/records/cursor.ts).
 */
export interface SeekPosition {
  segment: number;
  values: ReadonlyArray<string | number | null>;
  id: number;
}

/** A page's rows, each with the segment of the order it was read from (what its cursor names). */
interface RowsRead {
  rows: RawRow[];
  segments: number[];
}

/** The position of a raw row in a segment's order. */
export function positionOf(plan: SortPlan, segment: number, row: RawRow): SeekPosition {
  const values = plan[segment]!.order.slice(0, -1).map(([column]) => (row[column] ?? null) as string | number | null);
  return { segment, values, id: Number(row.id) };
}

/** An order walked the other way: its segments last to first, each order reversed (the same index, backwards). */
export function reversePlan(plan: SortPlan): SortPlan {
  const flip = (direction: 'asc' | 'desc') => (direction === 'asc' ? 'desc' : 'asc');
  const [first, ...rest] = [...plan]
    .reverse()
    .map((segment) => ({ ...segment, order: segment.order.map(([column, direction]) => [column, flip(direction)] as const) }));
  return [first!, ...rest];
}

type Condition = (builder: Knex.QueryBuilder) => void;

const sameValue =
  (column: string, value: string | number | null): Condition =>
  (builder) =>
    void (value === null ? builder.whereNull(`r.${column}`) : builder.where(`r.${column}`, value));

/** One index range of a seek: its condition, and the order to walk it in. */
interface SeekRange {
  where: Condition;
  /** The segment's order without the columns the range holds to one value (see SortSegment.fixed). */
  order: SortSpec;
}

/**
 * The rows after `position` in one segment's order, as index ranges in the order a walk meets them: the rows with
 * the same sort values and a later id, then those whose last sort value comes later (the others equal), and so on
 * to those whose first sort value comes later. Each is an equality prefix and one range of the order's index, so
 * every range is a seek, however many rows share a value (a sort on a yes/no column has thousands of ties).
 * Both dialects order NULL below every value (first ascending, last descending): after NULL ascending is IS NOT
 * NULL and descending nothing; after a value descending is the values below it, then the NULLs.
 */
function rangesAfter(order: SortSpec, position: SeekPosition, notNull: readonly string[]): SeekRange[] {
  const columns = order.slice(0, -1);
  const idDirection = order[order.length - 1]![1];
  const ranges: SeekRange[] = [];
  for (let level = columns.length; level >= 0; level--) {
    const prefix = columns.slice(0, level).map(([column], i) => sameValue(column, position.values[i]!));
    const within = (last: Condition, fixed = level): SeekRange => ({
      where: (builder) => {
        for (const condition of prefix) condition(builder);
        last(builder);
      },
      order: order.slice(fixed),
    });
    if (level === columns.length) {
      ranges.push(within((b) => void b.where('r.id', idDirection === 'asc' ? '>' : '<', position.id)));
      continue;
    }
    const [column, direction] = columns[level]!;
    const value = position.values[level]!;
    if (direction === 'asc') {
      ranges.push(within(value === null ? (b) => void b.whereNotNull(`r.${column}`) : (b) => void b.where(`r.${column}`, '>', value)));
    } else if (value !== null) {
      ranges.push(within((b) => void b.where(`r.${column}`, '<', value)));
      if (!notNull.includes(column)) ranges.push(within((b) => void b.whereNull(`r.${column}`), level + 1));
    }
  }
  return ranges;
}

/**
 * Up to `limit` rows of an order after `from` (from its start without it), each with its segment: the ranges after
 * the position in its segment, then the following segments whole, read one after another until the page is full.
 * `base` gives the query to narrow (the table as `r`, its selection and filters).
 */
export async function rowsAfter(
  db: Db,
  plan: SortPlan,
  from: SeekPosition | undefined,
  limit: number,
  base: () => Knex.QueryBuilder,
): Promise<RowsRead> {
  const read: RowsRead = { rows: [], segments: [] };
  for (let index = from?.segment ?? 0; index < plan.length && read.rows.length < limit; index++) {
    const segment = plan[index]!;
    const ranges: SeekRange[] =
      from && index === from.segment
        ? rangesAfter(segment.order, from, segment.notNull ?? [])
        : [{ where: () => undefined, order: orderOfSegment(segment) }];
    for (const range of ranges) {
      if (read.rows.length >= limit) break;
      const builder = base();
      segment.where?.(builder);
      range.where(builder);
      // Both are ends of the segment's order: the shorter leaves out every column held to one value.
      const order = range.order.length < orderOfSegment(segment).length ? range.order : orderOfSegment(segment);
      const rows = await selectBuilt(db, applyOrder(builder, order).limit(limit - read.rows.length));
      read.rows.push(...rows);
      read.segments.push(...rows.map(() => index));
    }
  }
  return read;
}

/** From this offset on, a page first finds its ids from the sort index, then reads only those rows. */
const DEFERRED_JOIN_OFFSET = 200;

export const applyOrder = (builder: Knex.QueryBuilder, order: SortSpec) => {
  for (const [column, direction] of order) builder.orderBy(`r.${column}`, direction);
  return builder;
};

/**
 * The ids of one page of a several-segment order, read across the segments it spans. A page that starts past the
 * first rows counts each segment before the last (an index range) to know where it starts; the first page counts
 * nothing, so its cost does not grow with the table (a count of "upcoming" events reads 120,000 index entries at 1M).
 */
async function idsOfSegments(db: Db, plan: SortPlan, limit: number, offset: number, base: () => Knex.QueryBuilder): Promise<IdsRead> {
  const read: IdsRead = { ids: [], segments: [] };
  let skip = offset;
  for (const [i, segment] of plan.entries()) {
    if (read.ids.length >= limit) break;
    const scoped = () => {
      const builder = base();
      segment.where?.(builder);
      return builder;
    };
    if (i < plan.length - 1 && skip > 0) {
      const counted = (await scoped().clearSelect().count({ n: '*' }).first()) as { n: number | string } | undefined;
      const size = Number(counted?.n ?? 0);
      if (skip >= size) {
        skip -= size;
        continue;
      }
    }
    const rows = await selectBuilt<{ id: number }>(
      db,
      applyOrder(scoped().clearSelect().select('r.id'), orderOfSegment(segment))
        .limit(limit - read.ids.length)
        .offset(skip),
    );
    read.ids.push(...rows.map((row) => Number(row.id)));
    read.segments.push(...rows.map(() => i));
    skip = 0;
  }
  return read;
}

interface IdsRead {
  ids: number[];
  segments: number[];
}

const idsOf = (read: RowsRead): IdsRead => ({ ids: read.rows.map((row) => Number(row.id)), segments: read.segments });

/** The rows of ids read in order, with their segments (a row deleted in between is left out with its segment). */
async function rowsOfIds(db: Db, definition: RecordDefinition, read: IdsRead): Promise<RowsRead> {
  const rows = await rowsInOrder(db, definition, read.ids);
  if (rows.length === read.ids.length) return { rows, segments: read.segments };
  const segmentOf = new Map(read.ids.map((id, i) => [id, read.segments[i]!]));
  return { rows, segments: rows.map((row) => segmentOf.get(Number(row.id))!) };
}

const isIdOnly = (plan: SortPlan) => plan.length === 1 && !plan[0].where && plan[0].order.length === 1;

/**
 * One page of rows in the given order, with the maintained totals of the named buckets. A shallow page reads the
 * totals as scalar subqueries of the page query itself (one round trip, one pooled connection per request); so does
 * a page read after a cursor, at any depth.
 */
export async function pageOfRows(
  db: Db,
  definition: RecordDefinition,
  request: PageRequest,
  buckets: readonly string[],
): Promise<RowsRead & { counts: Map<string, number>; helperColumns: string[] }> {
  const helperColumns = buckets.map((_, i) => `bucketTotal${i}`);
  const withTotals = (builder: Knex.QueryBuilder) => {
    buckets.forEach((bucket, i) => {
      builder.select(
        db.raw('(SELECT ?? FROM ?? WHERE ?? = ? AND ?? = ?) AS ??', [
          'total',
          COUNTS,
          'kind',
          definition.code,
          'bucket',
          bucket,
          helperColumns[i]!,
        ]),
      );
    });
    return builder;
  };
  const totalsOf = async (rows: RawRow[]) =>
    rows.length > 0
      ? new Map(buckets.map((bucket, i) => [bucket, Number(rows[0]![helperColumns[i]!] ?? 0)]))
      : (await readCounts(db, [definition.code])).get(definition.code)!;
  const newestFirst = isIdOnly(request.sort);
  if (request.after) {
    // Newest first reads the rows themselves (the primary key is the order); any other order reads the page's ids
    // from its sort index, then those rows.
    const found = await rowsAfter(db, request.sort, request.after, request.limit, () => {
      const builder = withTotals(db(`${definition.table} as r`).select(newestFirst ? 'r.*' : 'r.id'));
      request.where?.(builder);
      return builder;
    });
    const counts = await totalsOf(found.rows);
    if (newestFirst) return { ...found, counts, helperColumns: found.rows.length > 0 ? helperColumns : [] };
    return { ...(await rowsOfIds(db, definition, idsOf(found))), counts, helperColumns: [] };
  }
  if (request.sort.length > 1) {
    const [ids, counts] = await Promise.all([
      idsOfSegments(db, request.sort, request.limit, request.offset, () => {
        const builder = db(`${definition.table} as r`);
        request.where?.(builder);
        return builder;
      }),
      readCounts(db, [definition.code]),
    ]);
    return { ...(await rowsOfIds(db, definition, ids)), counts: counts.get(definition.code)!, helperColumns: [] };
  }
  const [segment] = request.sort;
  const ordered = (builder: Knex.QueryBuilder) => {
    request.where?.(builder);
    segment.where?.(builder);
    return applyOrder(builder, orderOfSegment(segment)).limit(request.limit).offset(request.offset);
  };
  if (newestFirst && request.offset < DEFERRED_JOIN_OFFSET) {
    const build = () => ordered(withTotals(db(`${definition.table} as r`).select('r.*')));
    const shape = [
      definition.table,
      definition.code,
      ...buckets,
      request.whereKey,
      JSON.stringify(segment.order),
      request.limit,
      request.offset,
    ];
    const rows =
      request.where && request.whereKey === undefined ? await selectBuilt(db, build()) : await selectByShape(db, shape.join('\0'), build);
    return { rows, segments: rows.map(() => 0), counts: await totalsOf(rows), helperColumns: rows.length > 0 ? helperColumns : [] };
  }
  // Any other order, or a deep page, first reads the page's ids from the sort index alone (a covering index, so the
  // planner walks it rather than sorting the table, however few rows the table has), then only those rows.
  const ids = await selectBuilt(db, ordered(withTotals(db(`${definition.table} as r`).select('r.id'))));
  return {
    ...(await rowsOfIds(db, definition, { ids: ids.map((row) => Number(row.id)), segments: ids.map(() => 0) })),
    counts: await totalsOf(ids),
    helperColumns: [],
  };
}

async function rowsInOrder(db: Db, definition: RecordDefinition, ids: readonly number[]): Promise<RawRow[]> {
  if (ids.length === 0) return [];
  const records = await selectBuilt(db, db(definition.table).whereIn('id', ids).select('*'));
  const byId = new Map(records.map((row) => [Number(row.id), row]));
  return ids.flatMap((id): RawRow[] => {
    const record = byId.get(id);
    return record ? [record] : [];
  });
}

/**
 * One page of the records matching a search, with the number of all matches (two queries: a window count would
 * make MariaDB materialise and sort every match). Newest (or oldest) first reads the matches in posting order
 * (ids, newest = highest) and stops at the page, then reads just the page's rows; other orders need the sort
 * columns of every match.
 */
export async function pageOfMatches(
  db: Db,
  definition: RecordDefinition,
  matches: Matches,
  request: PageRequest,
): Promise<RowsRead & { total: number }> {
  const counting = totalOfMatches(db, definition.code, matches);
  const matched = () => db(`${definition.table} as r`).join(matches.subquery.clone().as('m'), 'm.recordId', 'r.id');
  let paging: Promise<RowsRead>;
  if (isIdOnly(request.sort)) {
    const direction = request.sort[0].order[0]![1];
    paging = (async (): Promise<RowsRead> => {
      const builder = matches.subquery.clone().clearSelect().select(`${matches.idColumn} as recordId`).orderBy(matches.idColumn, direction);
      if (request.after) builder.where(matches.idColumn, direction === 'asc' ? '>' : '<', request.after.id);
      else builder.offset(request.offset);
      const ids = ((await builder.limit(request.limit)) as Array<{ recordId: number }>).map((row) => Number(row.recordId));
      return rowsOfIds(db, definition, { ids, segments: ids.map(() => 0) });
    })();
  } else if (request.after) {
    paging = rowsAfter(db, request.sort, request.after, request.limit, () => matched().select('r.*'));
  } else if (request.sort.length > 1) {
    paging = idsOfSegments(db, request.sort, request.limit, request.offset, matched).then((ids) => rowsOfIds(db, definition, ids));
  } else {
    const [segment] = request.sort;
    const builder = matched().select('r.*');
    segment.where?.(builder);
    paging = (applyOrder(builder, orderOfSegment(segment)).limit(request.limit).offset(request.offset) as Promise<RawRow[]>).then(
      (rows) => ({
        rows,
        segments: rows.map(() => 0),
      }),
    );
  }
  const [read, total] = await Promise.all([paging, counting]);
  return { ...read, total };
}

/**
 * How many records match: remembered while the type's change number read now is the one it was counted at (as the
 * global search does), so paging through a search, or searching the same term again, counts its matches once.
 */
async function totalOfMatches(db: Db, code: number, matches: Matches): Promise<number> {
  const changes = changeNumberSql(code);
  const remembered = isTransaction(db) ? undefined : rememberedTotal(db, code, matches);
  if (remembered) {
    const [now] = await selectRows<{ changes: number | string }>(db, 'SELECT ' + changes.sql + ' AS changes', changes.bindings);
    if (Number(now?.changes) === remembered.changes) return remembered.total;
  }
  const counted = (await db
    .from(matches.subquery.clone().as('m'))
    .select(db.raw('COUNT(*) AS n'), db.raw(changes.sql + ' AS changes', changes.bindings))
    .first()) as { n: number | string; changes: number | string } | undefined;
  const total = Number(counted?.n ?? 0);
  if (!isTransaction(db)) rememberTotal(db, code, matches, Number(counted?.changes ?? 0), total);
  return total;
}
