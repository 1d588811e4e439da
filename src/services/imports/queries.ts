import type { Knex } from 'knex';
import { dialectOfDb } from '@db/knex.js';

type Db = Knex | Knex.Transaction;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** IN lists are longer than insert chunks: one value per binding, so 2,000 still sit far under both limits. */
const LOOKUP_CHUNK = 2000;

/** Makes sure the kind's lock row exists (once per import), so taking the lock per batch is a plain locking read. */
export async function ensureImportLock(db: Db, name: 'events' | 'brands'): Promise<void> {
  if (dialectOfDb(db as Knex) !== 'mysql') return;
  await db('import_locks').insert({ name }).onConflict('name').ignore();
}

/**
 * Takes this import kind's lock for the rest of the transaction (MySQL; SQLite already has a single writer):
 * concurrent imports then run their batches one at a time, and each batch's reads, taken after the lock, see
 * every contact and brand the other committed.
 */
export async function takeImportLock(db: Db, name: 'events' | 'brands'): Promise<void> {
  if (dialectOfDb(db as Knex) !== 'mysql') return;
  await db('import_locks').select('name').where({ name }).forUpdate();
}

export interface EventTarget {
  id: number;
  wordpressEventId: number;
  websiteUrl: string | null;
}

/**
 * Owner rows are locked while contacts are added to them (ADR 0020), so a delete cannot leave orphans. Events are
 * locked for update (their website may be written next, and upgrading a shared lock could deadlock); brands only
 * get contacts, and a shared lock, enough to keep a delete out, is cheaper for thousands of rows per batch.
 */
function lockedOnMysql<Q extends Knex.QueryBuilder>(db: Db, query: Q, mode: 'update' | 'share'): Q {
  if (dialectOfDb(db as Knex) !== 'mysql') return query;
  return (mode === 'update' ? query.forUpdate() : query.forShare()) as Q;
}

/** The events a batch names, by their WordPress id, locked until the batch commits. */
export async function findEventsByWordpressIds(db: Db, wordpressIds: readonly number[]): Promise<EventTarget[]> {
  const found: EventTarget[] = [];
  for (const part of chunks(wordpressIds, LOOKUP_CHUNK)) {
    const rows = (await lockedOnMysql(
      db,
      db('events').select('id', 'wordpressEventId', 'websiteUrl').whereIn('wordpressEventId', part),
      'update',
    )) as Array<{
      id: number;
      wordpressEventId: number | string;
      websiteUrl: string | null;
    }>;
    for (const row of rows) found.push({ id: Number(row.id), wordpressEventId: Number(row.wordpressEventId), websiteUrl: row.websiteUrl });
  }
  return found;
}

/** Every brand's id and name, read once per import so matching a name costs no query. */
export async function listBrandNames(db: Db): Promise<Array<{ id: number; brandName: string }>> {
  const rows = (await db('brands').select('id', 'brandName').orderBy('id')) as Array<{ id: number; brandName: string }>;
  return rows.map((row) => ({ id: Number(row.id), brandName: row.brandName }));
}

/** Locks the existing brands a batch adds contacts to, and returns those that still exist. */
export async function lockBrands(db: Db, ids: readonly number[]): Promise<Set<number>> {
  const existing = new Set<number>();
  for (const part of chunks(
    [...ids].sort((a, b) => a - b),
    LOOKUP_CHUNK,
  )) {
    const rows = (await lockedOnMysql(db, db('brands').select('id').whereIn('id', part), 'share')) as Array<{ id: number }>;
    for (const row of rows) existing.add(Number(row.id));
  }
  return existing;
}

/** Brands stored under exactly these names (one created by another import since this one read the names). */
export async function findBrandsByName(db: Db, names: readonly string[]): Promise<Array<{ id: number; brandName: string }>> {
  const found: Array<{ id: number; brandName: string }> = [];
  for (const part of chunks(names, LOOKUP_CHUNK)) {
    const rows = (await db('brands').select('id', 'brandName').whereIn('brandName', part).orderBy('id')) as Array<{
      id: number;
      brandName: string;
    }>;
    for (const row of rows) found.push({ id: Number(row.id), brandName: row.brandName });
  }
  return found;
}

/**
 * The (owner, address) pairs among the given addresses that contacts of this owner type already have, as
 * contactKey()s. Looked up by address, not by owner, so the cost follows the batch and not how many contacts the
 * owners have piled up. MySQL compares through the column's case-insensitive collation, and its (email, entityType,
 * entityId) index answers the lookup without reading the rows;
 * SQLite through lower(email), which migration 20261121300000 indexes.
 */
export async function existingContactKeys(db: Db, entityType: string, emails: readonly string[]): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const part of chunks(lowered(emails), LOOKUP_CHUNK)) {
    const query = whereEmailIn(db, db('contacts').select('entityId', 'email').where('entityType', entityType), part);
    for (const row of (await query) as Array<{ entityId: number; email: string }>) keys.add(contactKey(Number(row.entityId), row.email));
  }
  return keys;
}

/**
 * The ids of contacts of any owner with one of these addresses, ignoring case (the general import's email key), by
 * the same indexes: on SQLite every owner type is named, so the (entityType, lower(email)) index answers it.
 */
export async function contactIdsByEmail(db: Db, ownerTypes: readonly string[], emails: readonly string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const part of chunks(lowered(emails), LOOKUP_CHUNK)) {
    const query = whereEmailIn(
      db,
      db('contacts')
        .select('id')
        .whereIn('entityType', [...ownerTypes]),
      part,
    );
    for (const row of (await query) as Array<{ id: number }>) ids.push(Number(row.id));
  }
  return ids;
}

const lowered = (emails: readonly string[]) => [...new Set(emails.map((email) => email.toLowerCase()))];

function whereEmailIn<Q extends Knex.QueryBuilder>(db: Db, query: Q, lowercased: readonly string[]): Q {
  // whereRaw, not raw: the placeholders are generated, the addresses travel as bindings.
  if (dialectOfDb(db as Knex) === 'sqlite')
    return query.whereRaw('lower(email) in (' + lowercased.map(() => '?').join(',') + ')', [...lowercased]) as Q;
  return query.whereIn('email', [...lowercased]) as Q;
}

export const contactKey = (ownerId: number, email: string) => `${ownerId}\u0000${email.trim().toLowerCase()}`;
