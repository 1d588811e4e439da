import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { insertRowsInBulk, type BulkRow } from '@db/bulk-rows.js';
import { withTransaction } from '@db/transaction.js';
import { RECORD_TYPES } from '@shared/record-types.js';
import { definitionOf } from '../records/definitions.js';
import { GRAMS } from '../records/derived.js';
import { decodeBlock } from '../records/postings.js';
import { gramsOf, normaliseSearchText } from '../records/search-text.js';
import {
  KEY_SOURCES,
  REASON_WEIGHT,
  SIMILAR_FROM,
  keysOf,
  nameSimilarity,
  normaliseName,
  pairScore,
  type DuplicateKind,
  type KeyType,
} from './keys.js';

/**
 * The duplicate keys and candidate pairs (docs/decisions/0108-duplicates-and-merge.md): derived data, brought in line
 * with a record's or contact's row in the transaction of every write (src/services/records/writes.ts,
 * src/services/contacts/writes.ts), and rebuilt whole after the last migration when its rules change.
 */

const KEYS = 'duplicate_keys';
export const PAIRS = 'duplicate_pairs';
/** Bump when the keys, the similarity or the score rules change: the next start rebuilds both tables. */
const DUPLICATE_RULES_VERSION = 1;
const VERSION_ROW = 'duplicates';

type Db = Knex | Knex.Transaction;
type RawRow = Record<string, unknown>;

const DUPLICATE_KINDS: readonly DuplicateKind[] = [...RECORD_TYPES, 'contact'];
export const tableOf = (kind: DuplicateKind) => (kind === 'contact' ? 'contacts' : definitionOf(kind).table);

const CHUNK = 400;
/** Key values per read of the keys (SQLite binds at most 32,766 values; MySQL's IN lists have no small limit). */
const KEY_VALUES_PER_READ = 2000;
/**
 * Similar names are looked for when a write (or a findMatches call) has at most this many rows: an edit, an add, a
 * small import. A bulk write (an import batch, a sync run) gets its exact keys and same-name pairs at once, and its
 * similar-name pairs when a record is next written or the pairs are rebuilt: reading the postings of every gram of
 * 1,000 names made an import of 20,000 events 30 times slower.
 */
const SIMILARITY_BATCH = 50;
/** A rebuild looks for similar names in types of at most this many records (about a minute of postings reads). */
const SIMILARITY_REBUILD_MAX = 30_000;
function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A match of one row: the other record, the pair's score and the reasons. */
export interface KeyMatch {
  id: number;
  score: number;
  reasons: string[];
}

const REASON_TEXT: Record<KeyType, string> = { email: 'same email', phone: 'same phone', name: 'same name' };
const similarReason = (similarity: number) => `similar name (${similarity.toFixed(2)})`;

/** Whether a write of these columns can change a kind's keys (no columns named: it can). */
export function touchesDuplicateKeys(kind: DuplicateKind, columns?: readonly string[]): boolean {
  return !columns || columns.some((column) => KEY_SOURCES[kind].columns.includes(column));
}

/** The records (of one kind, besides `self`) whose name looks like `name`, found through the search index's trigrams. */
async function similarNames(db: Db, kind: DuplicateKind, names: ReadonlyArray<{ self?: number; name: string }>) {
  const out = new Map<number, Map<number, number>>(); // row index → other id → similarity
  if (kind === 'contact' || names.length === 0) return out;
  const code = definitionOf(kind).code;
  const gramsByRow = names.map(({ name }) => gramsOf(normaliseSearchText(name.trim())));
  const allGrams = [...new Set(gramsByRow.flat())];
  const idsByGram = new Map<number, number[]>();
  for (const part of chunks(allGrams, CHUNK)) {
    const rows = (await db(GRAMS).where('kind', code).whereIn('gram', part).select('gram', 'block', 'ids')) as Array<{
      gram: number;
      block: number;
      ids: Uint8Array;
    }>;
    for (const row of rows) {
      const gram = Number(row.gram);
      let ids = idsByGram.get(gram);
      if (!ids) idsByGram.set(gram, (ids = []));
      decodeBlock(Number(row.block), row.ids, ids);
    }
  }
  const candidates = new Map<number, Set<number>>();
  // Hits per record id counted in one typed array (reset after each row through the ids it touched): a Map's get
  // and set per posting made a rebuild of 20,000 names take minutes, as common grams hold most ids of a type.
  let maxId = 0;
  for (const ids of idsByGram.values()) for (const id of ids) if (id > maxId) maxId = id;
  const counts = new Uint16Array(maxId + 1);
  names.forEach(({ self }, index) => {
    const grams = gramsByRow[index]!;
    if (grams.length === 0) return;
    const touched: number[] = [];
    for (const gram of grams) for (const id of idsByGram.get(gram) ?? []) if (id !== self && counts[id]!++ === 0) touched.push(id);
    const hits: Array<[number, number]> = [];
    for (const id of touched) {
      hits.push([id, counts[id]!]);
      counts[id] = 0;
    }
    const enough = Math.max(1, Math.ceil(grams.length * 0.4));
    const best = hits
      .filter(([, n]) => n >= enough)
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, 50)
      .map(([id]) => id);
    candidates.set(index, new Set(best));
  });
  const wanted = [...new Set([...candidates.values()].flatMap((ids) => [...ids]))];
  const nameOf = new Map<number, string>();
  const source = KEY_SOURCES[kind];
  for (const part of chunks(wanted, CHUNK)) {
    const rows = (await db(tableOf(kind))
      .whereIn('id', part)
      .select(['id', ...source.columns])) as RawRow[];
    for (const row of rows) nameOf.set(Number(row.id), normaliseName(source.name!(row)));
  }
  names.forEach(({ name }, index) => {
    const key = normaliseName(name);
    const found = new Map<number, number>();
    for (const id of candidates.get(index) ?? []) {
      const other = nameOf.get(id);
      if (other === undefined || other === key) continue; // the same name is an exact key match
      const similarity = nameSimilarity(key, other);
      if (similarity >= SIMILAR_FROM) found.set(id, similarity);
    }
    out.set(index, found);
  });
  return out;
}

/**
 * For each given row (as written, or as a new row would be), the stored records it matches by a key or a similar
 * name, best first. `self` (a row's own id) is never its own match.
 */
export async function matchRows(
  db: Db,
  kind: DuplicateKind,
  rows: ReadonlyArray<{ self?: number; row: RawRow }>,
  /** Whether to look for similar names too (through the trigram postings, which costs far more than the keys). */
  similarNamesToo = rows.length <= SIMILARITY_BATCH,
): Promise<KeyMatch[][]> {
  const keysByRow = rows.map(({ row }) => keysOf(kind, row));
  // The values wanted, by key type: one statement per key type and KEY_VALUES_PER_READ values, each a range read of
  // the (kind, keyType, keyValue) index; (keyType, keyValue) pairs in one IN list took ten statements per import
  // batch and were the import's costliest reads on MariaDB.
  const wanted = new Map<KeyType, Set<string>>();
  for (const keys of keysByRow)
    for (const key of keys) {
      let values = wanted.get(key.keyType);
      if (!values) wanted.set(key.keyType, (values = new Set()));
      values.add(key.keyValue);
    }
  const holders = new Map<string, number[]>();
  for (const [keyType, values] of wanted)
    for (const part of chunks([...values], KEY_VALUES_PER_READ)) {
      const found = (await db(KEYS).where({ kind, keyType }).whereIn('keyValue', part).select('recordId', 'keyValue')) as Array<{
        recordId: number;
        keyValue: string;
      }>;
      for (const key of found) {
        const name = `${keyType}\u0000${key.keyValue}`;
        const ids = holders.get(name);
        if (ids) ids.push(Number(key.recordId));
        else holders.set(name, [Number(key.recordId)]);
      }
    }
  const source = KEY_SOURCES[kind];
  const named = source.name && similarNamesToo ? rows.map(({ self, row }) => ({ self, name: source.name!(row) })) : [];
  const similar = await similarNames(db, kind, named);
  return rows.map(({ self }, index) => {
    const reasons = new Map<number, Array<[string, number]>>();
    const add = (id: number, reason: string, weight: number) => {
      if (id === self) return;
      const list = reasons.get(id) ?? [];
      if (!list.some(([text]) => text === reason)) list.push([reason, weight]);
      reasons.set(id, list);
    };
    for (const key of keysByRow[index]!)
      for (const id of holders.get(`${key.keyType}\u0000${key.keyValue}`) ?? [])
        add(id, REASON_TEXT[key.keyType], REASON_WEIGHT[key.keyType]);
    for (const [id, similarity] of similar.get(index) ?? []) add(id, similarReason(similarity), similarity * 0.9);
    return [...reasons]
      .map(([id, list]) => ({ id, score: pairScore(list.map(([, weight]) => weight)), reasons: list.map(([text]) => text) }))
      .sort((a, b) => b.score - a.score || a.id - b.id);
  });
}

/**
 * Brings the keys and pairs of these records (or contacts) in line with their rows, in the writer's transaction. A
 * record that no longer exists loses its keys and its pairs. Runs after the search index is updated (the name
 * similarity reads its trigrams).
 */
export async function refreshDuplicates(
  db: Db,
  kind: DuplicateKind,
  ids: readonly number[],
  /** The rows just inserted with these ids, in their order (an import's): nothing of theirs is stored to read or remove. */
  inserted?: ReadonlyArray<Readonly<RawRow>>,
): Promise<void> {
  if (inserted) {
    const { columns } = KEY_SOURCES[kind];
    const rows = inserted.map((row, index) => {
      const picked: RawRow = { id: ids[index] };
      for (const column of columns) picked[column] = row[column] ?? null;
      return picked;
    });
    // Every key first, then the pairs: a row's matches include the rows inserted with it (each pair is found from
    // both of its rows and kept once), as when the keys and pairs were written a part at a time.
    await writeKeys(db, kind, rows);
    const similar = rows.length <= SIMILARITY_BATCH;
    await writePairs(db, kind, rows, similar, similar || rows.length === 0 ? undefined : await insertedKeyMatches(db, kind, rows));
    return;
  }
  const unique = [...new Set(ids.map(Number))].filter((id) => Number.isInteger(id) && id > 0);
  for (const part of chunks(unique, CHUNK)) {
    const rows = (await db(tableOf(kind))
      .whereIn('id', part)
      .select(['id', ...KEY_SOURCES[kind].columns])) as RawRow[];
    await db(KEYS).where('kind', kind).whereIn('recordId', part).delete();
    await writeKeys(db, kind, rows);
    await db(PAIRS).where('kind', kind).whereIn('lowId', part).delete();
    await db(PAIRS).where('kind', kind).whereIn('highId', part).delete();
    await writePairs(db, kind, rows, unique.length <= SIMILARITY_BATCH);
  }
}

/**
 * The rows' keys, in bulk (src/db/bulk-rows.ts): Knex's insert builder, compiling an import's thousands of keys,
 * cost it more than the database's own work (bench:general-import).
 */
async function writeKeys(db: Db, kind: DuplicateKind, rows: readonly RawRow[]): Promise<void> {
  const keyRows: BulkRow[] = rows.flatMap((row) => keysOf(kind, row).map((key) => [kind, Number(row.id), key.keyType, key.keyValue]));
  await insertRowsInBulk(db, KEYS, ['kind', 'recordId', 'keyType', 'keyValue'], keyRows, { count: keyRows.length });
}

/**
 * What matchRows answers (without similar names) for rows just inserted whose keys are written, in one statement:
 * the rows' keys (a range of ids: an insert's ids ascend) joined to every other holder of the same value, rather than
 * the values sent back as IN lists. Values the collation finds equal but are not (MariaDB's unicode_ci folds case
 * and accents) are no match, as in matchRows.
 */
async function insertedKeyMatches(db: Db, kind: DuplicateKind, rows: readonly RawRow[]): Promise<KeyMatch[][]> {
  const ids = rows.map((row) => Number(row.id));
  const found = (await db({ mine: KEYS })
    .join({ other: KEYS }, (on) =>
      on.on('other.kind', 'mine.kind').andOn('other.keyType', 'mine.keyType').andOn('other.keyValue', 'mine.keyValue'),
    )
    .where('mine.kind', kind)
    .whereBetween('mine.recordId', [Math.min(...ids), Math.max(...ids)])
    .whereRaw('?? <> ??', ['other.recordId', 'mine.recordId'])
    .select(
      'mine.recordId as self',
      'mine.keyType as keyType',
      'mine.keyValue as mineValue',
      'other.keyValue as otherValue',
      'other.recordId as other',
    )) as Array<{
    self: number;
    keyType: KeyType;
    mineValue: string;
    otherValue: string;
    other: number;
  }>;
  // Holders by the row's id and key type.
  const holders = new Map<string, number[]>();
  for (const match of found) {
    if (match.mineValue !== match.otherValue) continue;
    const name = `${Number(match.self)}\u0000${match.keyType}`;
    const list = holders.get(name);
    if (list) list.push(Number(match.other));
    else holders.set(name, [Number(match.other)]);
  }
  return rows.map((row, index) => {
    const self = ids[index]!;
    const reasons = new Map<number, Array<[string, number]>>();
    for (const key of keysOf(kind, row))
      for (const id of holders.get(`${self}\u0000${key.keyType}`) ?? []) {
        const list = reasons.get(id) ?? [];
        if (!list.some(([text]) => text === REASON_TEXT[key.keyType])) list.push([REASON_TEXT[key.keyType], REASON_WEIGHT[key.keyType]]);
        reasons.set(id, list);
      }
    return [...reasons]
      .map(([id, list]) => ({ id, score: pairScore(list.map(([, weight]) => weight)), reasons: list.map(([text]) => text) }))
      .sort((a, b) => b.score - a.score || a.id - b.id);
  });
}

async function writePairs(
  db: Db,
  kind: DuplicateKind,
  rows: readonly RawRow[],
  similarNamesToo: boolean,
  /** The rows' matches when the caller has them (insertedKeyMatches). */
  known?: KeyMatch[][],
): Promise<void> {
  const matches =
    known ??
    (await matchRows(
      db,
      kind,
      rows.map((row) => ({ self: Number(row.id), row })),
      similarNamesToo,
    ));
  const pairs = new Map<string, RawRow>();
  rows.forEach((row, index) => {
    const id = Number(row.id);
    for (const match of matches[index]!) {
      const [lowId, highId] = id < match.id ? [id, match.id] : [match.id, id];
      pairs.set(`${lowId}:${highId}`, { kind, lowId, highId, score: match.score, reasons: match.reasons.join('|').slice(0, 500) });
    }
  });
  for (const insert of chunks([...pairs.values()], 150)) await db(PAIRS).insert(insert).onConflict(['kind', 'lowId', 'highId']).ignore();
}

/** Fills both tables from the rows, replacing what they held (after a rules change). */
async function rebuildDuplicates(db: Db): Promise<void> {
  await db(KEYS).delete();
  await db(PAIRS).delete();
  for (const kind of DUPLICATE_KINDS) {
    const columns = ['id', ...KEY_SOURCES[kind].columns];
    // Every key first, then the pairs: a row's matches include rows read after it.
    let lastId = 0;
    for (;;) {
      const rows = (await db(tableOf(kind)).where('id', '>', lastId).orderBy('id').limit(2000).select(columns)) as RawRow[];
      if (rows.length === 0) break;
      await writeKeys(db, kind, rows);
      lastId = Number(rows[rows.length - 1]!.id);
    }
    // Only rows holding a key shared with another, or a name (similarity), can be in a pair.
    const shared = (await db(KEYS)
      .where('kind', kind)
      .whereIn(['keyType', 'keyValue'], (sub) =>
        sub.from(KEYS).where('kind', kind).groupBy('keyType', 'keyValue').havingRaw('COUNT(*) > 1').select('keyType', 'keyValue'),
      )
      .distinct('recordId')) as Array<{ recordId: number }>;
    const named = KEY_SOURCES[kind].name ? ((await db(KEYS).where({ kind, keyType: 'name' }).pluck('recordId')) as number[]) : [];
    const similar = named.length <= SIMILARITY_REBUILD_MAX;
    const ids = [...new Set([...shared.map((row) => Number(row.recordId)), ...(similar ? named.map(Number) : [])])].sort((a, b) => a - b);
    for (const part of chunks(ids, CHUNK)) {
      const rows = (await db(tableOf(kind)).whereIn('id', part).select(columns)) as RawRow[];
      await writePairs(db, kind, rows, similar);
    }
  }
}

function duplicatesVersion(): string {
  return createHash('sha256')
    .update(JSON.stringify([DUPLICATE_RULES_VERSION, KEY_SOURCES]))
    .digest('hex');
}

/**
 * Rebuilds the duplicate keys and pairs once when the stored rules version differs from the code's (after the last
 * migration, from migrateToLatest, after the search index is in line); otherwise costs one read.
 */
export async function refreshDuplicateData(db: Knex, options: { log?: Logger } = {}): Promise<boolean> {
  const version = duplicatesVersion();
  const stored = async (from: Db) =>
    ((await from('derived_data_versions').where({ name: VERSION_ROW }).first('version')) as { version: string } | undefined)?.version;
  if ((await stored(db)) === version) return false;
  return withTransaction({ db, log: options.log }, async (trx) => {
    await trx('derived_data_versions')
      .where({ name: VERSION_ROW })
      .update({ version: trx.ref('version') });
    if ((await stored(trx)) === version) return false;
    const started = Date.now();
    await rebuildDuplicates(trx);
    await trx('derived_data_versions').insert({ name: VERSION_ROW, version }).onConflict('name').merge();
    options.log?.info({ ms: Date.now() - started }, 'duplicate keys rebuilt');
    return true;
  });
}
