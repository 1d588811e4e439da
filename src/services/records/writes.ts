import type { Knex } from 'knex';
import { dialectOfDb } from '@db/knex.js';
import { definitionOf } from './definitions.js';
import { reindexRecords } from './derived.js';
import { refreshDuplicates, touchesDuplicateKeys } from '../duplicates/derived.js';
import { type RecordType } from '@shared/record-types.js';

/**
 * The only code that writes the record tables (events, professionals, run_clubs, brands, media, influencers; see
 * `table` in definitions.ts). Every function here brings the derived data (search index and maintained counts,
 * docs/decisions/0011-record-search-and-counts.md) in line with what it wrote, in the caller's transaction, so a
 * writer cannot forget to. test/unit/record-writes.test.ts fails on a write to a record table anywhere else.
 *
 * Rows are given as stored (encoded with encodeRow). The records service, the CSV import, the WordPress sync, the
 * payments' stored totals and the demo seed all write through here; take a transaction from withTransaction.
 */

type Trx = Knex.Transaction;
type StoredRow = Record<string, unknown>;

/**
 * Multi-row inserts stay under each database's limits: Knex writes a SQLite multi-row insert as a compound SELECT,
 * which SQLite caps at 500 terms; MySQL caps bound values at 65,535 (1,000 rows of the widest table, events, bind
 * far fewer).
 */
const rowsPerInsert = (trx: Trx) => (dialectOfDb(trx) === 'sqlite' ? 400 : 1000);
/**
 * Rows per CASE update. The database tries a CASE's branches one by one for every row it updates, so a statement's
 * cost grows with the square of its rows: 200 per statement halved the time of 1,000 (bench:import).
 */
const ROWS_PER_CASE = 200;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Reindexes the written records (search index, counts, duplicate keys), unless the write named its columns and none
 * of them feeds that derived data (a website, a note, a stored total): then nothing needs reading.
 */
async function recordsChanged(trx: Trx, kind: RecordType, ids: readonly number[], columns?: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const derived = definitionOf(kind).derivedColumns;
  if (!columns || columns.some((column) => derived.includes(column))) await reindexRecords(trx, kind, ids);
  // After the index: the name similarity reads its trigrams (docs/decisions/0108-duplicates-and-merge.md).
  if (touchesDuplicateKeys(kind, columns)) await refreshDuplicates(trx, kind, ids);
}

export async function insertRecordRow(trx: Trx, kind: RecordType, row: StoredRow): Promise<number> {
  const [id] = await trx(definitionOf(kind).table).insert(row);
  await recordsChanged(trx, kind, [Number(id)]);
  return Number(id);
}

/**
 * Inserts many records in multi-row statements and returns their ids in the order the rows were given. The ids
 * are read back as "rows above the highest id seen before inserting": inside this transaction that is exactly our
 * rows (SQLite has one writer; on MySQL the consistent snapshot hides other sessions' later inserts), whatever the
 * auto-increment lock mode, and ids ascend in insertion order. They are matched by position, never by a value read
 * back: a database may store a name differently from how it was sent.
 */
export async function insertRecordRows(trx: Trx, kind: RecordType, rows: readonly StoredRow[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const { table } = definitionOf(kind);
  const highest = (await trx(table).max({ id: 'id' }).first()) as { id: number | string | null } | undefined;
  const before = Number(highest?.id ?? 0);
  for (const part of chunks(rows, rowsPerInsert(trx))) await trx(table).insert(part);
  const inserted = (await trx(table).select('id').where('id', '>', before).orderBy('id')) as Array<{ id: number }>;
  if (inserted.length !== rows.length) throw new Error(`Inserted ${rows.length} rows into ${table} but found ${inserted.length} new ids`);
  const ids = inserted.map((row) => Number(row.id));
  await recordsChanged(trx, kind, ids);
  return ids;
}

/** Sets the same values on the given records; answers how many rows the database reports as updated. */
export async function updateRecordRows(trx: Trx, kind: RecordType, ids: readonly number[], values: StoredRow): Promise<number> {
  if (ids.length === 0) return 0;
  const changed = await trx(definitionOf(kind).table)
    .whereIn('id', [...ids])
    .update(values);
  await recordsChanged(trx, kind, ids, Object.keys(values));
  return changed;
}

/**
 * Sets one column to its own value per record (plus `common` on each), in one statement per chunk (a CASE on id)
 * instead of one UPDATE per record: how the CSV import sets thousands of websites at once.
 */
export async function setRecordColumnEach(
  trx: Trx,
  kind: RecordType,
  column: string,
  valueById: ReadonlyMap<number, unknown>,
  common: StoredRow = {},
): Promise<void> {
  const { table } = definitionOf(kind);
  for (const part of chunks([...valueById.entries()], ROWS_PER_CASE)) {
    const cases = part.map(() => 'WHEN ? THEN ?').join(' ');
    const bindings = part.flatMap(([id, value]) => [id, value]);
    await trx(table)
      .whereIn(
        'id',
        part.map(([id]) => id),
      )
      .update({ ...common, [column]: trx.raw('CASE ?? ' + cases + ' END', ['id', ...(bindings as Knex.Value[])]) });
  }
  await recordsChanged(trx, kind, [...valueById.keys()], [column, ...Object.keys(common)]);
}

/** Deletes one record row (what it owns is the caller's: see deleteOwnedRows); answers whether it existed. */
export async function deleteRecordRow(trx: Trx, kind: RecordType, id: number): Promise<number> {
  const deleted = await trx(definitionOf(kind).table).where({ id }).delete();
  await recordsChanged(trx, kind, [id]);
  return deleted;
}
