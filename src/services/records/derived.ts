import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { insertRowsInBulk, type BulkOptions } from '@db/bulk-rows.js';
import { dialectOfDb } from '@db/knex.js';
import { isTransaction, withTransaction } from '@db/transaction.js';
import { ALL_BUCKET, ALL_DEFINITIONS, CONTACT_INDEX, definitionOf, type IndexedDefinition, type IndexedKind } from './definitions.js';
import { rebuildPaymentTotals } from '../payments/totals.js';
import { noteTextsOf } from '../notes/search.js';
import { gramsOf, searchDocument } from './search-text.js';
import {
  blockOf,
  changedBlock,
  encodeBlock,
  PostingChanges,
  PostingCollector,
  type KeyChange,
  type PostingRow,
  type SortedPostings,
} from './postings.js';
import { type RecordType } from '@shared/record-types.js';

/**
 * Derived data for fast lists and search (docs/decisions/0011-record-search-and-counts.md):
 * - record_search_docs: one row per record (and per contact), its normalised search text and the filter buckets it
 *   counts in;
 * - record_search_grams: the trigram postings of that text, packed per block of 256 record ids (primary key kind,
 *   gram, block; src/services/records/postings.ts);
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
/** The row of derived_data_versions that stands for the tables above (a restore drops it: they are not archived). */
export const VERSION_ROW = 'records';
/**
 * Bump when the rules that turn a row into its document change while the columns read stay the same
 * (normalisation, grams, buckets, how fields are joined): adding or dropping a column changes the version by itself.
 */
const DERIVED_RULES_VERSION = 4; // 2: payment_totals joined the derived data; 3: packed postings; 4: notes' words

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

/** A record's (or contact's) document: its searched fields, then the words of its notes (issue 33). */
function documentOf(definition: IndexedDefinition, row: RawRow, notes: readonly string[] = []) {
  return { text: searchDocument([...definition.searchFields(row), ...notes]), buckets: definition.buckets(row) };
}

/** The name notes use for the owners of a definition: the record type, or 'contact'. */
const noteOwnerOf = (definition: IndexedDefinition) => ('kind' in definition ? String(definition.kind) : 'contact');

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

/**
 * Indexes contacts this transaction has just inserted, given as written (every column the index reads; one they lack
 * counts as null) with their new ids, in the same order. Nothing of theirs is read back: a new id has no stored
 * document yet.
 */
export async function indexInsertedContacts(
  db: Db,
  rows: ReadonlyArray<Readonly<Record<string, unknown>>>,
  ids: readonly number[],
): Promise<void> {
  const definition = indexedDefinitionOf('contact');
  const inserted = new Map<number, RawRow>();
  rows.forEach((row, index) => {
    const indexed: RawRow = { id: ids[index] };
    for (const column of definition.derivedColumns) indexed[column] = row[column] ?? null;
    inserted.set(ids[index]!, indexed);
  });
  await reindexRows(db, definition, ids, inserted);
}

/**
 * From this many records a reindex first finds the blocks of ids that hold no document yet (every id above the
 * highest indexed one), whose posting rows cannot exist and so are not read: an import's new records fill them.
 */
const FRESH_BLOCKS_FROM = 256;

async function reindexRows(
  db: Db,
  definition: IndexedDefinition,
  ids: readonly number[],
  /** The rows, by id, when the caller has just inserted them (see indexInsertedContacts). */
  inserted?: ReadonlyMap<number, RawRow>,
): Promise<void> {
  const unique = [...new Set(ids.map(Number))].filter((id) => Number.isInteger(id) && id > 0).sort((a, b) => a - b);
  if (unique.length === 0) return;
  const deltas = new Map<string, number>();
  const bump = (bucket: string, by: number) => deltas.set(bucket, (deltas.get(bucket) ?? 0) + by);
  // Every new document of the call, written together at the end, and the postings it adds and removes.
  const newDocs: Row[] = [];
  const postings = new PostingChanges(unique.length * 64);
  await lockIndexOf(db, definition.code);
  const freshFrom = unique.length >= FRESH_BLOCKS_FROM ? await firstFreshBlock(db, definition.code) : undefined;

  for (const part of chunks(unique, CHUNK)) {
    // Inserted rows come with their ids; others are read by id.
    const current = inserted
      ? inserted
      : new Map(
          (
            (await db(definition.table)
              .whereIn('id', part)
              .select(['id', ...definition.derivedColumns])) as RawRow[]
          ).map((row) => [Number(row.id), row]),
        );
    const stored = inserted
      ? []
      : ((await db(DOCS).where({ kind: definition.code }).whereIn('recordId', part).select('recordId', 'text', 'buckets')) as StoredDoc[]);
    const previous = new Map(stored.map((doc) => [Number(doc.recordId), doc]));
    // Just inserted rows have no notes yet.
    const notes = inserted ? new Map<number, string[]>() : await noteTextsOf(db, noteOwnerOf(definition), part);

    for (const id of part) {
      const row = current.get(id);
      const old = previous.get(id);
      const next = row ? documentOf(definition, row, notes.get(id)) : undefined;
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
      const nextGrams = next ? gramsOf(next.text) : [];
      if (old) {
        const oldGrams = new Set(gramsOf(old.text));
        const kept = new Set(nextGrams);
        postings.remove(
          id,
          [...oldGrams].filter((gram) => !kept.has(gram)),
        );
        postings.add(
          id,
          nextGrams.filter((gram) => !oldGrams.has(gram)),
        );
      } else postings.add(id, nextGrams);

      const textChanged = old && next && (old.text !== next.text || old.buckets !== bucketText(next.buckets));
      if (!old !== !next || textChanged) bump(CHANGES_BUCKET, 1);
      if (old && !next) await db(DOCS).where({ kind: definition.code, recordId: id }).delete();
      else if (!old && next) newDocs.push([definition.code, id, next.text, bucketText(next.buckets)]);
      else if (old && next && textChanged) {
        await db(DOCS)
          .where({ kind: definition.code, recordId: id })
          .update({ text: next.text, buckets: bucketText(next.buckets) });
      }
    }
  }
  await writeSearchRows(db, DOCS, DOC_COLUMNS, newDocs, { count: newDocs.length });
  await applyPostingChanges(db, definition.code, postings, freshFrom);
  await applyCountDeltas(db, definition, deltas);
}

/**
 * Edits of records in one block change the same posting rows: on MariaDB/MySQL, writers of a type's index take it one
 * at a time, behind the type's change counter (which each of them updates anyway), so their locking reads cannot
 * deadlock on the gaps. Every writer takes it before any other lock of the index (its documents included), so no two
 * wait on each other in opposite orders.
 */
async function lockIndexOf(db: Db, code: number): Promise<void> {
  if (dialectOfDb(db as Knex) === 'mysql') await db(COUNTS).where({ kind: code, bucket: CHANGES_BUCKET }).forUpdate().first('total');
}

/**
 * The lowest block of ids above the type's highest indexed record, read before this write adds documents. A posting
 * row belongs to a stored document's id, so none exists in that block or above. With the index locked (lockIndexOf),
 * no other write of this type is halfway, and the read is a locking one, which sees the latest committed document
 * rather than this transaction's snapshot.
 */
async function firstFreshBlock(db: Db, code: number): Promise<number> {
  const read = db(DOCS).where({ kind: code }).orderBy('recordId', 'desc').first('recordId');
  if (dialectOfDb(db as Knex) === 'mysql') read.forUpdate();
  const highest = (await read) as { recordId: number } | undefined;
  return highest ? blockOf(Number(highest.recordId)) + 1 : 0;
}

/** (gram, block) keys per statement that reads or deletes posting rows. */
const KEYS_PER_STATEMENT = 2_000;

/**
 * Applies a write's posting changes to the stored rows of the keys they touch: each is read (locked on MariaDB),
 * changed, and written again, or deleted when no id is left. New keys are inserted, in bulk for an import's batch.
 * Keys from block `freshFrom` on (see firstFreshBlock) are new without asking. The caller holds lockIndexOf.
 */
async function applyPostingChanges(db: Db, code: number, changes: PostingChanges, freshFrom?: number): Promise<void> {
  if (changes.size === 0) return;
  const mysql = dialectOfDb(db as Knex) === 'mysql';
  const keys = changes.keys();
  const maybeStored = freshFrom === undefined ? keys : keys.filter((key) => key.block < freshFrom);
  // Integers computed here, written as digits: a statement of 2,000 pairs would otherwise bind 4,000 values.
  const keyList = (part: typeof keys) => part.map((key) => `(${key.gram},${key.block})`).join(',');
  // Stored rows by block, then gram (an import batch's keys fall in a few blocks).
  const stored = new Map<number, Map<number, Buffer>>();
  const storedOf = (key: KeyChange) => stored.get(key.block)?.get(key.gram);
  for (const part of chunks(maybeStored, KEYS_PER_STATEMENT)) {
    const read = db(GRAMS)
      .where('kind', code)
      .whereRaw(`(gram, block) IN (${keyList(part)})`)
      .select('gram', 'block', 'ids');
    if (mysql) read.forUpdate();
    for (const row of (await read) as Array<{ gram: number; block: number; ids: Buffer }>) {
      let grams = stored.get(Number(row.block));
      if (!grams) stored.set(Number(row.block), (grams = new Map()));
      grams.set(Number(row.gram), row.ids);
    }
  }
  for (const part of chunks(
    keys.filter((key) => storedOf(key) !== undefined),
    KEYS_PER_STATEMENT,
  )) {
    await db(GRAMS)
      .where('kind', code)
      .whereRaw(`(gram, block) IN (${keyList(part)})`)
      .delete();
  }
  // Made as they are written: a batch's rows never all sit in memory at once.
  function* rows(): Generator<PostingRow> {
    for (const key of keys) {
      const old = storedOf(key);
      // A new key only gains ids, ascending already.
      const ids = old || key.remove.length > 0 ? changedBlock(key.block, old, key.add, key.remove) : key.add;
      if (ids.length > 0) yield [code, key.gram, key.block, encodeBlock(ids)];
    }
  }
  await writeSearchRows(db, GRAMS, POSTING_COLUMNS, rows(), { count: keys.length });
}

/** How far a rebuild has got: `done` of `total` rows (documents read, or postings written) in one phase. */
export interface RebuildProgress {
  phase: string;
  done: number;
  total: number;
}

export interface RebuildOptions {
  /** Called as the rebuild moves on (often: the caller decides how often to show it). */
  onProgress?: (progress: RebuildProgress) => void;
}

/** The search tables a rebuild writes: the live ones (in place, in a transaction) or fresh ones swapped in after. */
interface RebuildTarget {
  /** Writes a batch of documents (rows of DOC_COLUMNS). */
  writeDocs(docs: Row[]): Promise<void>;
  /** Writes a kind's posting rows in primary-key order, calling `written` with the number written so far. */
  writePostings(code: number, postings: SortedPostings, written: (done: number) => void): Promise<void>;
}

/**
 * Recomputes all derived data of the given types from their rows (after a definition change, bulk loads, repair).
 * Rebuilding every type on MariaDB/MySQL outside a transaction (`pacer db reindex`, the benchmark's fill), the
 * documents and postings go into fresh tables that replace the live ones in one RENAME TABLE once complete, so
 * readers see the old index until the new one is whole, a rebuild that fails midway leaves the old one as it was,
 * and writes made meanwhile are carried over (docs/decisions/0061-search-index-rebuild-by-swap.md). Otherwise
 * (some types, a transaction given as refreshDerivedData does, SQLite) each type is rebuilt in place in a
 * transaction, which commits with the caller's. Postings are written in primary-key order either way.
 */
export async function rebuildDerivedData(
  db: Db,
  kinds: readonly IndexedKind[] = INDEXED_KINDS,
  options: RebuildOptions = {},
): Promise<void> {
  const everything = INDEXED_KINDS.every((kind) => kinds.includes(kind));
  if (everything && !isTransaction(db) && dialectOfDb(db) === 'mysql') await rebuildBySwap(db, options);
  else for (const kind of kinds) await withTransaction({ db }, (trx) => rebuildInPlace(trx, kind, options));
}

async function rebuildInPlace(trx: Knex.Transaction, kind: IndexedKind, options: RebuildOptions): Promise<void> {
  const definition = indexedDefinitionOf(kind);
  await lockIndexOf(trx, definition.code);
  await trx(GRAMS).where({ kind: definition.code }).delete();
  await trx(DOCS).where({ kind: definition.code }).delete();
  const target: RebuildTarget = {
    writeDocs: (docs) => writeSearchRows(trx, DOCS, DOC_COLUMNS, docs),
    writePostings: (code, postings, written) => writeSearchRows(trx, GRAMS, POSTING_COLUMNS, postings.rows(code), { written }),
  };
  const totals = await buildKind(trx, definition, target, options);
  await replaceCounts(trx, definition, totals);
}

/** Sets a type's counts to the rebuilt totals and moves its change number on (so no remembered total outlives it). */
async function replaceCounts(trx: Knex.Transaction, definition: IndexedDefinition, totals: Map<string, number>) {
  const changes = (await trx(COUNTS).where({ kind: definition.code, bucket: CHANGES_BUCKET }).first('total')) as
    { total: number } | undefined;
  await trx(COUNTS).where({ kind: definition.code }).delete();
  const rows = [...totals, [CHANGES_BUCKET, Number(changes?.total ?? 0) + 1] as const];
  await trx(COUNTS).insert(rows.map(([bucket, total]) => ({ kind: definition.code, bucket, total })));
}

/** The suffix of the tables a swap rebuild retires. */
const RETIRED = '_retired';
/** The fresh tables a swap rebuild fills, named in full so the record-writes check sees which tables are written. */
const DOCS_REBUILT = 'record_search_docs_rebuilt';
const GRAMS_REBUILT = 'record_search_grams_rebuilt';

async function rebuildBySwap(db: Knex, options: RebuildOptions): Promise<void> {
  const changesAtStart = await changeNumbers(db);
  for (const [table, rebuilt] of [
    [DOCS, DOCS_REBUILT],
    [GRAMS, GRAMS_REBUILT],
  ] as const) {
    await db.raw('DROP TABLE IF EXISTS ??, ??', [rebuilt, table + RETIRED]);
    await db.raw('CREATE TABLE ?? LIKE ??', [rebuilt, table]);
  }
  const target: RebuildTarget = {
    writeDocs: (docs) => writeSearchRows(db, DOCS_REBUILT, DOC_COLUMNS, docs),
    writePostings: (code, postings, written) => writeSearchRows(db, GRAMS_REBUILT, POSTING_COLUMNS, postings.rows(code), { written }),
  };
  // In code order, so each type's postings are appended after the previous type's (the primary key's order).
  const definitions = INDEXED_KINDS.map(indexedDefinitionOf).sort((a, b) => a.code - b.code);
  for (const definition of definitions) await buildKind(db, definition, target, options);
  options.onProgress?.({ phase: 'swapping in the new index', done: 0, total: 1 });
  await db.raw('RENAME TABLE ?? TO ??, ?? TO ??, ?? TO ??, ?? TO ??', [
    DOCS,
    DOCS + RETIRED,
    DOCS_REBUILT,
    DOCS,
    GRAMS,
    GRAMS + RETIRED,
    GRAMS_REBUILT,
    GRAMS,
  ]);
  const changesAtSwap = await changeNumbers(db);
  for (const definition of definitions) {
    const moved = changesAtSwap.get(definition.code) !== changesAtStart.get(definition.code);
    const changed = moved ? await documentsChangedMeanwhile(db, definition) : [];
    for (const part of chunks(changed, CHUNK)) await withTransaction({ db }, (trx) => reindexRows(trx, definition, part));
    // Not the totals counted while reading the rows: writes since the swap have already moved the counts by their
    // deltas against the new documents, so the counts are made again from those documents, with writers held off.
    await withTransaction({ db }, async (trx) => {
      await lockIndexOf(trx, definition.code);
      await replaceCounts(trx, definition, await countDocuments(trx, definition));
    });
  }
  await db.raw('DROP TABLE ??, ??', [DOCS + RETIRED, GRAMS + RETIRED]);
  options.onProgress?.({ phase: 'swapping in the new index', done: 1, total: 1 });
}

/**
 * A type's count buckets from its documents as they are now. The documents are read with shared locks, so a writer
 * that has changed one commits first (with its count deltas) and the next waits until the counts are replaced.
 */
async function countDocuments(trx: Knex.Transaction, definition: IndexedDefinition): Promise<Map<string, number>> {
  const groups = (await trx(DOCS)
    .where({ kind: definition.code })
    .groupBy('buckets')
    .select('buckets', trx.raw('COUNT(*) AS n'))
    .forShare()) as Array<{ buckets: string; n: number | string }>;
  const totals = new Map<string, number>([[ALL_BUCKET, 0]]);
  const add = (bucket: string, n: number) => totals.set(bucket, (totals.get(bucket) ?? 0) + n);
  for (const group of groups) {
    add(ALL_BUCKET, Number(group.n));
    for (const bucket of bucketList(group.buckets)) add(bucket, Number(group.n));
  }
  return totals;
}

/** Every type's change number (bucket #changes), which each write that changes a document moves on. */
async function changeNumbers(db: Knex): Promise<Map<number, number>> {
  const rows = (await db(COUNTS).where({ bucket: CHANGES_BUCKET }).select('kind', 'total')) as Array<{
    kind: number;
    total: number | string;
  }>;
  return new Map(rows.map((row) => [Number(row.kind), Number(row.total)]));
}

/**
 * Writes that landed while a swap rebuild ran went to the index it replaced (now retired): the records whose
 * document there differs from the rebuilt one, to be reindexed from their rows against the new index.
 */
async function documentsChangedMeanwhile(db: Knex, definition: IndexedDefinition): Promise<number[]> {
  const differing = (from: string, to: string) =>
    db(`${from} as a`)
      .leftJoin(`${to} as b`, function sameRecord() {
        this.on('b.kind', '=', 'a.kind').andOn('b.recordId', '=', 'a.recordId');
      })
      .where('a.kind', definition.code)
      .where((where) => where.whereNull('b.recordId').orWhereRaw('?? <> ?? OR ?? <> ??', ['a.text', 'b.text', 'a.buckets', 'b.buckets']))
      .pluck('a.recordId') as Promise<number[]>;
  const ids = [...(await differing(DOCS + RETIRED, DOCS)), ...(await differing(DOCS, DOCS + RETIRED))];
  return [...new Set(ids.map(Number))];
}

type Row = ReadonlyArray<string | number | Buffer>;
/** The columns of record_search_docs and record_search_grams, in the order their rows are written. */
const DOC_COLUMNS = ['kind', 'recordId', 'text', 'buckets'] as const;
const POSTING_COLUMNS = ['kind', 'gram', 'block', 'ids'] as const;
/**
 * Writes rows into a search table, on the given database or in the given transaction (src/db/bulk-rows.ts): the live
 * ones (a reindex, a rebuild in place) or fresh ones (swap), named here so the record-writes check sees them.
 */
const writeSearchRows = (
  db: Db,
  table: typeof DOCS | typeof GRAMS | typeof DOCS_REBUILT | typeof GRAMS_REBUILT,
  columns: readonly string[],
  rows: Iterable<Row>,
  options?: BulkOptions,
) => insertRowsInBulk(db, table, columns, rows, options);

/**
 * Reads a type's rows in id ranges, writes their documents as it goes and collects their postings, then writes the
 * posting rows sorted by (gram, block). Answers the type's count buckets.
 */
async function buildKind(
  db: Db,
  definition: IndexedDefinition,
  target: RebuildTarget,
  options: RebuildOptions,
): Promise<Map<string, number>> {
  const name = definition.table;
  const total = Number(((await db(definition.table).count({ n: '*' }).first()) as { n: number | string }).n);
  const totals = new Map<string, number>([[ALL_BUCKET, 0]]);
  const postings = new PostingCollector();
  let lastId = 0;
  let done = 0;
  // One batch of documents is written while the next is read and made.
  let writing: Promise<void> = Promise.resolve();
  options.onProgress?.({ phase: `${name}: documents`, done, total });
  for (;;) {
    const rows = (await db(definition.table)
      .where('id', '>', lastId)
      .orderBy('id')
      .limit(5000)
      .select(['id', ...definition.derivedColumns])) as RawRow[];
    await writing;
    if (rows.length === 0) break;
    const docs: Row[] = [];
    const notes = await noteTextsOf(db, noteOwnerOf(definition), { from: Number(rows[0]!.id), to: Number(rows[rows.length - 1]!.id) });
    for (const row of rows) {
      const id = Number(row.id);
      const doc = documentOf(definition, row, notes.get(id));
      docs.push([definition.code, id, doc.text, bucketText(doc.buckets)]);
      postings.add(id, gramsOf(doc.text));
      totals.set(ALL_BUCKET, totals.get(ALL_BUCKET)! + 1);
      for (const bucket of doc.buckets) totals.set(bucket, (totals.get(bucket) ?? 0) + 1);
    }
    writing = target.writeDocs(docs);
    // Awaited before the next batch, or above once the rows run out; until then a failure must not go unhandled.
    writing.catch(() => undefined);
    lastId = Number(rows[rows.length - 1]!.id);
    done += rows.length;
    options.onProgress?.({ phase: `${name}: documents`, done, total: Math.max(total, done) });
  }
  const sorted = postings.sorted();
  options.onProgress?.({ phase: `${name}: postings`, done: 0, total: sorted.rowCount });
  await target.writePostings(definition.code, sorted, (written) =>
    options.onProgress?.({ phase: `${name}: postings`, done: written, total: sorted.rowCount }),
  );
  return totals;
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
