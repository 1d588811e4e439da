import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { dialectOfDb } from '@db/knex.js';
import { withTransaction } from '@db/transaction.js';
import { ALL_BUCKET, ALL_DEFINITIONS, CONTACT_INDEX, definitionOf, type IndexedDefinition, type IndexedKind } from './definitions.js';
import { rebuildPaymentTotals } from '../payments/totals.js';
import { gramsOf, searchDocument } from './search-text.js';
import { type RecordType } from '@shared/record-types.js';

/**
 * Derived data for fast lists and search (docs/decisions/0011-record-search-and-counts.md):
 * - record_search_docs: one row per record (and per contact), its normalised search text and the filter buckets it
 *   counts in;
 * - record_search_grams: the trigram postings of that text (primary key kind, gram, recordId);
 * - record_counts: how many records of each type (bucket "all") and per filter bucket;
 * - payment_totals: the dashboard's payment figures (src/services/payments/totals.ts), rebuilt with the rest.
 * Every change goes through `reindexRecords`, which compares a record's current row with its stored document, so
 * one call handles inserts, updates and deletes alike, inside the writer's transaction.
 * After the last migration, `refreshDerivedData` rebuilds all of it once whenever its definition (the version
 * stored in derived_data_versions) differs from the code's (docs/decisions/0007-frozen-migrations-versioned-derived-data.md).
 */

export const DOCS = 'record_search_docs';
export const GRAMS = 'record_search_grams';
export const COUNTS = 'record_counts';
const VERSIONS = 'derived_data_versions';
/** The row of derived_data_versions that stands for the three tables above. */
const VERSION_ROW = 'records';
/**
 * Bump when the rules that turn a row into its document change while the columns read stay the same
 * (normalisation, grams, buckets, how fields are joined): adding or dropping a column changes the version by itself.
 */
const DERIVED_RULES_VERSION = 2; // 2: payment_totals joined the derived data

type Db = Knex | Knex.Transaction;

/** Everything the index holds: the six record types, then the contacts. */
const INDEXED_KINDS: readonly IndexedKind[] = [...ALL_DEFINITIONS.map((definition) => definition.kind), 'contact'];
const indexedDefinitionOf = (kind: IndexedKind): IndexedDefinition => (kind === 'contact' ? CONTACT_INDEX : definitionOf(kind));
type RawRow = Record<string, unknown>;

const CHUNK = 500;

/**
 * Not a filter: how many times a type's documents have changed, bumped in the transaction of every change (and by a
 * rebuild). A search remembers a total with the number it read before counting and reuses it while that number
 * stays the same (src/services/records/queries.ts), so a common term's matches are not counted again and again.
 */
export const CHANGES_BUCKET = '#changes';
/** Rows per INSERT: Knex writes a multi-row SQLite insert as a compound SELECT, which SQLite caps at 500 terms. */
const insertChunk = (db: Db) => (dialectOfDb(db as Knex) === 'sqlite' ? 400 : 2000);

interface StoredDoc {
  recordId: number;
  text: string;
  buckets: string;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Stored as ",featured," / ",type:trail,type:road,": a bucket is matched with LIKE '%,name,%' on both dialects. */
const bucketText = (buckets: readonly string[]) => (buckets.length ? `,${buckets.join(',')},` : '');
const bucketList = (text: string) => text.split(',').filter(Boolean);
export const bucketPattern = (bucket: string) => `%,${bucket},%`;

function documentOf(definition: IndexedDefinition, row: RawRow) {
  return { text: searchDocument(definition.searchFields(row)), buckets: definition.buckets(row) };
}

async function insertInChunks(db: Db, table: typeof DOCS | typeof GRAMS, rows: RawRow[]) {
  for (const part of chunks(rows, insertChunk(db))) await db(table).insert(part);
}

/** Adds deltas to the maintained counts; a missing counter row is created from an exact count (self-healing). */
async function applyCountDeltas(db: Db, definition: IndexedDefinition, deltas: Map<string, number>) {
  for (const [bucket, delta] of deltas) {
    if (delta === 0) continue;
    const changed = await db(COUNTS)
      .where({ kind: definition.code, bucket })
      .update({ total: db.raw('?? + ?', ['total', delta]) });
    if (changed === 0) {
      const total = bucket === CHANGES_BUCKET ? delta : await exactBucketCount(db, definition, bucket);
      await db(COUNTS).insert({ kind: definition.code, bucket, total });
    }
  }
}

/** Counts a bucket from the documents (used only when its counter row is missing). */
async function exactBucketCount(db: Db, definition: IndexedDefinition, bucket: string): Promise<number> {
  if (bucket === ALL_BUCKET) {
    const row = (await db(definition.table).count({ n: '*' }).first()) as { n: number | string } | undefined;
    return Number(row?.n ?? 0);
  }
  const docs = (await db(DOCS).where({ kind: definition.code }).select('buckets')) as Array<{ buckets: string }>;
  return docs.filter((doc) => bucketList(doc.buckets).includes(bucket)).length;
}

/**
 * Brings the derived data of the given records in line with their rows: call it in the same transaction as the
 * write. A record that no longer exists loses its document and leaves the counts.
 */
export async function reindexRecords(db: Db, kind: RecordType, ids: readonly number[]): Promise<void> {
  await reindexRows(db, indexedDefinitionOf(kind), ids);
}

/** The same for contacts: call it in the transaction of every contact write (src/services/contacts/writes.ts). */
export async function reindexContacts(db: Db, ids: readonly number[]): Promise<void> {
  await reindexRows(db, indexedDefinitionOf('contact'), ids);
}

async function reindexRows(db: Db, definition: IndexedDefinition, ids: readonly number[]): Promise<void> {
  const unique = [...new Set(ids.map(Number))].filter((id) => Number.isInteger(id) && id > 0);
  const deltas = new Map<string, number>();
  const bump = (bucket: string, by: number) => deltas.set(bucket, (deltas.get(bucket) ?? 0) + by);
  // Every new document and posting of the call, written together at the end: the postings in key order.
  const newDocs: RawRow[] = [];
  const newPostings: number[] = [];

  for (const part of chunks(unique, CHUNK)) {
    const rows = (await db(definition.table)
      .whereIn('id', part)
      .select(['id', ...definition.derivedColumns])) as RawRow[];
    const current = new Map(rows.map((row) => [Number(row.id), row]));
    const stored = (await db(DOCS)
      .where({ kind: definition.code })
      .whereIn('recordId', part)
      .select('recordId', 'text', 'buckets')) as StoredDoc[];
    const previous = new Map(stored.map((doc) => [Number(doc.recordId), doc]));

    for (const id of part) {
      const row = current.get(id);
      const old = previous.get(id);
      const next = row ? documentOf(definition, row) : undefined;
      const oldBuckets = old ? bucketList(old.buckets) : [];
      if (old) {
        bump(ALL_BUCKET, -1);
        for (const bucket of oldBuckets) bump(bucket, -1);
      }
      if (next) {
        bump(ALL_BUCKET, 1);
        for (const bucket of next.buckets) bump(bucket, 1);
      }

      // A new record (no stored document) has no postings to compare with or remove.
      const oldGrams = new Set(old ? gramsOf(old.text) : []);
      const nextGrams = next ? gramsOf(next.text) : [];
      if (old) {
        const kept = new Set(nextGrams);
        const removed = [...oldGrams].filter((gram) => !kept.has(gram));
        for (const gramPart of chunks(removed, CHUNK)) {
          await db(GRAMS).where({ kind: definition.code, recordId: id }).whereIn('gram', gramPart).delete();
        }
      }
      for (const gram of nextGrams) if (!oldGrams.has(gram)) newPostings.push(gram, id);

      const textChanged = old && next && (old.text !== next.text || old.buckets !== bucketText(next.buckets));
      if (!old !== !next || textChanged) bump(CHANGES_BUCKET, 1);
      if (old && !next) await db(DOCS).where({ kind: definition.code, recordId: id }).delete();
      else if (!old && next) newDocs.push({ kind: definition.code, recordId: id, text: next.text, buckets: bucketText(next.buckets) });
      else if (old && next && textChanged) {
        await db(DOCS)
          .where({ kind: definition.code, recordId: id })
          .update({ text: next.text, buckets: bucketText(next.buckets) });
      }
    }
  }
  await insertInChunks(db, DOCS, newDocs);
  await insertPostings(db, definition.code, newPostings);
  await applyCountDeltas(db, definition, deltas);
}

/** Postings per statement: fewer, larger statements matter here, as an imported contact has about 50 postings. */
const POSTINGS_PER_INSERT = 10_000;

/**
 * Inserts trigram postings given as flat (gram, recordId) pairs, sorted by the table's key so each statement fills
 * neighbouring index pages instead of touching pages all over the table (what makes a batch of thousands of new
 * contacts cheap to index). The values are integers this module computed (a record id, a 32-bit gram key), written
 * into the statement as digits: binding 30,000 of them per statement cost more than the database's own work.
 */
async function insertPostings(db: Db, kind: number, postings: readonly number[]): Promise<void> {
  const count = postings.length / 2;
  if (count === 0) return;
  if (!postings.every(Number.isSafeInteger) || !Number.isSafeInteger(kind)) throw new Error('search postings must be integers');
  const order = Array.from({ length: count }, (_, i) => i);
  order.sort((a, b) => postings[2 * a]! - postings[2 * b]! || postings[2 * a + 1]! - postings[2 * b + 1]!);
  for (let start = 0; start < count; start += POSTINGS_PER_INSERT) {
    const values = order.slice(start, start + POSTINGS_PER_INSERT).map((i) => `(${kind},${postings[2 * i]!},${postings[2 * i + 1]!})`);
    await db.raw('INSERT INTO ?? (??, ??, ??) VALUES ' + values.join(','), [GRAMS, 'kind', 'gram', 'recordId']);
  }
}

/**
 * Recomputes all derived data of the given types from their rows (after a definition change, bulk loads, repair).
 * Gram rows are inserted in primary-key order, which is what makes a bulk load into InnoDB fast.
 */
export async function rebuildDerivedData(db: Db, kinds: readonly IndexedKind[] = INDEXED_KINDS): Promise<void> {
  // Given a transaction (refreshDerivedData's), each kind joins it, so the rebuild and its version commit together.
  for (const kind of kinds) await withTransaction({ db }, (trx) => rebuildKind(trx, kind));
}

async function rebuildKind(trx: Db, kind: IndexedKind): Promise<void> {
  const definition = indexedDefinitionOf(kind);
  await trx(GRAMS).where({ kind: definition.code }).delete();
  await trx(DOCS).where({ kind: definition.code }).delete();
  const changes = (await trx(COUNTS).where({ kind: definition.code, bucket: CHANGES_BUCKET }).first('total')) as
    { total: number } | undefined;
  await trx(COUNTS).where({ kind: definition.code }).delete();

  const totals = new Map<string, number>([
    [ALL_BUCKET, 0],
    [CHANGES_BUCKET, Number(changes?.total ?? 0) + 1],
  ]);
  const postings: number[] = [];
  let lastId = 0;
  for (;;) {
    const rows = (await trx(definition.table)
      .where('id', '>', lastId)
      .orderBy('id')
      .limit(5000)
      .select(['id', ...definition.derivedColumns])) as RawRow[];
    if (rows.length === 0) break;
    const docs: RawRow[] = [];
    for (const row of rows) {
      const id = Number(row.id);
      const doc = documentOf(definition, row);
      docs.push({ kind: definition.code, recordId: id, text: doc.text, buckets: bucketText(doc.buckets) });
      for (const gram of gramsOf(doc.text)) postings.push(gram, id);
      totals.set(ALL_BUCKET, totals.get(ALL_BUCKET)! + 1);
      for (const bucket of doc.buckets) totals.set(bucket, (totals.get(bucket) ?? 0) + 1);
    }
    await insertInChunks(trx, DOCS, docs);
    lastId = Number(rows[rows.length - 1]!.id);
  }

  const order = Array.from({ length: postings.length / 2 }, (_, i) => i);
  order.sort((a, b) => postings[2 * a]! - postings[2 * b]! || postings[2 * a + 1]! - postings[2 * b + 1]!);
  const size = insertChunk(trx);
  for (let start = 0; start < order.length; start += size) {
    const rows = order
      .slice(start, start + size)
      .map((i) => ({ kind: definition.code, gram: postings[2 * i]!, recordId: postings[2 * i + 1]! }));
    await trx(GRAMS).insert(rows);
  }
  await trx(COUNTS).insert([...totals].map(([bucket, total]) => ({ kind: definition.code, bucket, total })));
}

/**
 * The code's version of the derived-data definition: the rules version and each type's key, table and the columns
 * its document is made of. Declaring one more column searchable changes it without anyone bumping a number.
 */
export function derivedDataVersion(): string {
  const types = INDEXED_KINDS.map(indexedDefinitionOf).map((definition) => [
    definition.code,
    definition.table,
    ...definition.derivedColumns,
  ]);
  return createHash('sha256')
    .update(JSON.stringify([DERIVED_RULES_VERSION, types]))
    .digest('hex');
}

async function storedVersion(db: Db): Promise<string | undefined> {
  const row = (await db(VERSIONS).where({ name: VERSION_ROW }).first('version')) as { version: string } | undefined;
  return row?.version;
}

/**
 * Rebuilds all derived data once when the database's stored definition version differs from the code's, then
 * stores the code's; otherwise costs one read. Run after the last migration (src/db/migrate.ts), never from one: a
 * migration is frozen in time while this reads the columns today's code declares. Answers whether it rebuilt.
 */
export async function refreshDerivedData(db: Knex, options: { log?: Logger } = {}): Promise<boolean> {
  const version = derivedDataVersion();
  if ((await storedVersion(db)) === version) return false;
  return withTransaction({ db, log: options.log }, async (trx) => {
    // Write before reading again: this takes the row lock (MySQL) or the write lock (SQLite) first, so of two
    // processes starting at once the second waits here, then finds the version stored and skips the rebuild (its
    // read comes after the wait, and InnoDB takes a transaction's snapshot at its first plain read).
    await trx(VERSIONS)
      .where({ name: VERSION_ROW })
      .update({ version: trx.ref('version') });
    if ((await storedVersion(trx)) === version) return false;
    const started = Date.now();
    options.log?.info('derived data definition changed: rebuilding the search index and record counts');
    await rebuildDerivedData(trx);
    await rebuildPaymentTotals(trx);
    await trx(VERSIONS).insert({ name: VERSION_ROW, version }).onConflict('name').merge();
    options.log?.info({ ms: Date.now() - started }, 'search index and record counts rebuilt');
    return true;
  });
}
