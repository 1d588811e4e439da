import type { Knex } from 'knex';
import { decodeRow } from '../../db/codecs.js';
import { columnKinds } from '../../db/columns.js';
import type { EventDistance, RunClubSchedule } from '../../shared/schemas/records.js';
import { ALL_BUCKET, type RecordDefinition, type SortSpec } from './definitions.js';
import { COUNTS, DOCS, GRAMS } from './derived.js';
import { codePointLength, GRAM_LENGTH, gramsOf, normaliseSearchText } from './search-text.js';

type Db = Knex | Knex.Transaction;
type RawRow = Record<string, unknown>;

/** How many postings a gram may have before it counts as "common" when choosing which grams to intersect. */
const GRAM_ESTIMATE_BOUND = 2000;
/** Grams probed for their frequency, and intersected, per query. */
const GRAMS_PROBED = 8;
const GRAMS_JOINED = 3;

export const decodeRecord = <T>(definition: RecordDefinition, row: RawRow): T => decodeRow<T>(definition.columns, row);

export async function findRecordRow(db: Db, definition: RecordDefinition, id: number, options: { forUpdate?: boolean } = {}) {
  const query = db(definition.table).where({ id }).first();
  if (options.forUpdate) query.forUpdate();
  return (await query) as RawRow | undefined;
}

export async function insertRecordRow(db: Db, definition: RecordDefinition, values: RawRow): Promise<number> {
  const [id] = await db(definition.table).insert(values);
  return Number(id);
}

export async function updateRecordRow(db: Db, definition: RecordDefinition, id: number, values: RawRow): Promise<number> {
  return db(definition.table).where({ id }).update(values);
}

export async function deleteRecordRow(db: Db, definition: RecordDefinition, id: number): Promise<number> {
  return db(definition.table).where({ id }).delete();
}

export async function eventDistances(db: Db, eventId: number): Promise<EventDistance[]> {
  const rows = (await db('event_distances').where({ eventId }).orderBy([{ column: 'distanceKm', order: 'asc' }, { column: 'id', order: 'asc' }])) as RawRow[];
  return rows.map((row) => decodeRow<EventDistance>(columnKinds.event_distances, row));
}

export async function runClubSchedules(db: Db, clubId: number): Promise<RunClubSchedule[]> {
  const rows = (await db('run_club_schedules').where({ clubId }).orderBy('id')) as RawRow[];
  return rows.map((row) => decodeRow<RunClubSchedule>(columnKinds.run_club_schedules, row));
}

/** The maintained totals of a type: bucket name → count (a bucket without a row has no records). */
export async function readCounts(db: Db, codes: readonly number[]): Promise<Map<number, Map<string, number>>> {
  const rows = (await db(COUNTS).whereIn('kind', codes).select('kind', 'bucket', 'total')) as Array<{ kind: number; bucket: string; total: number | string }>;
  const out = new Map<number, Map<string, number>>(codes.map((code) => [code, new Map()]));
  for (const row of rows) out.get(Number(row.kind))?.set(row.bucket, Number(row.total));
  return out;
}

export const countOf = (counts: Map<string, number> | undefined, bucket = ALL_BUCKET) => counts?.get(bucket) ?? 0;

/**
 * The ids of records whose search text contains `query` (case-insensitive), as a subquery, or null when no record
 * can match. Queries of three or more characters are narrowed by intersecting the postings of their rarest
 * trigrams, then checked exactly; shorter ones scan the compact text table.
 */
export async function matchingIds(db: Db, definition: RecordDefinition, query: string): Promise<{ subquery: Knex.QueryBuilder } | null> {
  // Wrapped: a query builder is a thenable, so returning it bare from an async function would run it.
  const needle = normaliseSearchText(query);
  const exact = (builder: Knex.QueryBuilder, alias: string) => builder.whereRaw('INSTR(??, ?) > 0', [`${alias}.text`, needle]);
  if (codePointLength(needle) < GRAM_LENGTH) {
    return { subquery: exact(db(`${DOCS} as d`).where('d.kind', definition.code).select('d.recordId as recordId'), 'd') };
  }

  const grams = gramsOf(needle);
  const probed = spread(grams, GRAMS_PROBED);
  const estimates = await estimatePostings(db, definition.code, probed);
  if (estimates.some((n) => n === 0)) return null;
  const chosen = probed
    .map((gram, i) => ({ gram, n: estimates[i]! }))
    .sort((a, b) => a.n - b.n)
    .slice(0, GRAMS_JOINED)
    .map((entry) => entry.gram);

  const [first, ...rest] = chosen as [number, ...number[]];
  let builder = db(`${GRAMS} as g0`).where({ 'g0.kind': definition.code, 'g0.gram': first });
  rest.forEach((gram, i) => {
    const alias = `g${i + 1}`;
    builder = builder.join(`${GRAMS} as ${alias}`, function joinGram() {
      this.on(`${alias}.kind`, '=', 'g0.kind').andOn(`${alias}.recordId`, '=', 'g0.recordId').andOnVal(`${alias}.gram`, '=', gram);
    });
  });
  builder = builder.join(`${DOCS} as d`, function joinDoc() {
    this.on('d.kind', '=', 'g0.kind').andOn('d.recordId', '=', 'g0.recordId');
  });
  return { subquery: exact(builder, 'd').select('g0.recordId as recordId') };
}

/** Up to `max` items spread over the whole list, so long queries probe grams from start to end. */
function spread<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  return Array.from({ length: max }, (_, i) => items[Math.floor((i * (items.length - 1)) / (max - 1))]!);
}

/** Postings per gram, each counted only up to a bound, in one round trip. */
async function estimatePostings(db: Db, kind: number, grams: readonly number[]): Promise<number[]> {
  const part = 'SELECT ? AS i, COUNT(*) AS n FROM (SELECT 1 AS one FROM ?? WHERE kind = ? AND gram = ? LIMIT ?) AS t';
  const sql = grams.map(() => part).join(' UNION ALL ');
  const bindings = grams.flatMap((gram, i) => [i, GRAMS, kind, gram, GRAM_ESTIMATE_BOUND]);
  const result = await db.raw(sql, bindings);
  const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Array<{ i: number | string; n: number | string }>;
  const out = new Array<number>(grams.length).fill(0);
  for (const row of rows) out[Number(row.i)] = Number(row.n);
  return out;
}

export interface PageRequest {
  where?: (builder: Knex.QueryBuilder) => void;
  sort: SortSpec;
  limit: number;
  offset: number;
}

/** One page of rows in the given order. */
export async function pageOfRows(db: Db, definition: RecordDefinition, request: PageRequest): Promise<RawRow[]> {
  const builder = db(`${definition.table} as r`).select('r.*');
  request.where?.(builder);
  for (const [column, direction] of request.sort) builder.orderBy(`r.${column}`, direction);
  return (await builder.limit(request.limit).offset(request.offset)) as RawRow[];
}

/** One page of the rows matching a search, with the number of all matches (window count, one pass). */
export async function pageOfMatches(
  db: Db,
  definition: RecordDefinition,
  matches: { subquery: Knex.QueryBuilder },
  request: PageRequest,
): Promise<{ rows: RawRow[]; total: number }> {
  const base = () => {
    const builder = db(`${definition.table} as r`).join(matches.subquery.clone().as('m'), 'm.recordId', 'r.id');
    request.where?.(builder);
    return builder;
  };
  const builder = base().select('r.*', db.raw('COUNT(*) OVER () AS ??', ['matchTotal']));
  for (const [column, direction] of request.sort) builder.orderBy(`r.${column}`, direction);
  const rows = (await builder.limit(request.limit).offset(request.offset)) as RawRow[];
  if (rows.length > 0) {
    const total = Number(rows[0]!.matchTotal);
    return { rows: rows.map(({ matchTotal: _ignored, ...row }) => row), total };
  }
  // A page past the end has no row to carry the total.
  const counted = (await base().count({ n: '*' }).first()) as { n: number | string } | undefined;
  return { rows: [], total: Number(counted?.n ?? 0) };
}
