import type { Knex } from 'knex';
import { dialectOfDb } from '../../db/knex.js';

type Db = Knex | Knex.Transaction;

/**
 * Multi-row statements are cut into chunks that stay well under both databases' bound-variable limits
 * (SQLite 32,766, MySQL 65,535) while still cutting round trips by hundreds.
 */
const CHUNK = 500;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Row locks only exist on MySQL; SQLite already serialises writers. */
function lockedForUpdate<Q extends Knex.QueryBuilder>(db: Db, query: Q): Q {
  return dialectOfDb(db as Knex) === 'mysql' ? (query.forUpdate() as Q) : query;
}

export interface EventTarget {
  id: number;
  wordpressEventId: number;
  websiteUrl: string | null;
}

/**
 * The events a batch names, locked on MySQL so two imports touching the same event take turns and the contact
 * check that follows sees the other's committed contacts.
 */
export async function findEventsByWordpressIds(db: Db, wordpressIds: readonly number[]): Promise<EventTarget[]> {
  const found: EventTarget[] = [];
  for (const part of chunks(wordpressIds)) {
    const rows = await lockedForUpdate(db, db('events').select('id', 'wordpressEventId', 'websiteUrl').whereIn('wordpressEventId', part));
    for (const row of rows as Array<{ id: number; wordpressEventId: number | string; websiteUrl: string | null }>) {
      found.push({ id: Number(row.id), wordpressEventId: Number(row.wordpressEventId), websiteUrl: row.websiteUrl });
    }
  }
  return found;
}

/** Sets each event's website in one statement per chunk (a CASE on id) instead of one UPDATE per event. */
export async function updateEventWebsites(db: Db, websites: ReadonlyMap<number, string>, updatedAt: string): Promise<void> {
  for (const part of chunks([...websites.entries()])) {
    const cases = part.map(() => 'WHEN ? THEN ?').join(' ');
    const bindings = part.flatMap(([id, url]) => [id, url]);
    await db('events')
      .whereIn(
        'id',
        part.map(([id]) => id),
      )
      .update({ websiteUrl: db.raw('CASE ?? ' + cases + ' END', ['id', ...bindings]), updatedAt });
  }
}

/** Every brand's id and name, read once per import so matching a name costs no query. */
export async function listBrandNames(db: Db): Promise<Array<{ id: number; brandName: string }>> {
  const rows = (await db('brands').select('id', 'brandName').orderBy('id')) as Array<{ id: number; brandName: string }>;
  return rows.map((row) => ({ id: Number(row.id), brandName: row.brandName }));
}

/** Locks existing brands a batch adds contacts to (MySQL), for the same reason as events. */
export async function lockBrands(db: Db, ids: readonly number[]): Promise<void> {
  if (dialectOfDb(db as Knex) !== 'mysql') return;
  for (const part of chunks(ids)) await db('brands').select('id').whereIn('id', part).forUpdate();
}

export async function highestBrandId(db: Db): Promise<number> {
  const row = (await db('brands').max({ id: 'id' }).first()) as { id: number | string | null } | undefined;
  return Number(row?.id ?? 0);
}

/**
 * Inserts brands in multi-row statements and returns their ids by name. The ids are read back as "rows above the
 * highest id seen before inserting": inside this transaction that is exactly our rows (SQLite has one writer; on
 * MySQL the consistent snapshot hides other sessions' later inserts), whatever the auto-increment lock mode.
 */
export async function insertBrands(db: Db, brands: ReadonlyArray<Record<string, unknown>>): Promise<Array<{ id: number; brandName: string }>> {
  if (brands.length === 0) return [];
  const before = await highestBrandId(db);
  for (const part of chunks(brands, 200)) await db('brands').insert(part);
  const rows = (await db('brands').select('id', 'brandName').where('id', '>', before).orderBy('id')) as Array<{ id: number; brandName: string }>;
  return rows.map((row) => ({ id: Number(row.id), brandName: row.brandName }));
}

/** The addresses (lower case) each owner already has as contacts. */
export async function existingContactEmails(db: Db, entityType: string, ownerIds: readonly number[]): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const part of chunks(ownerIds)) {
    const rows = (await db('contacts').select('entityId', 'email').where('entityType', entityType).whereIn('entityId', part).whereNotNull('email')) as Array<{
      entityId: number;
      email: string;
    }>;
    for (const row of rows) keys.add(contactKey(Number(row.entityId), row.email));
  }
  return keys;
}

export const contactKey = (ownerId: number, email: string) => `${ownerId}\u0000${email.trim().toLowerCase()}`;

export async function insertContacts(db: Db, contacts: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  for (const part of chunks(contacts)) await db('contacts').insert(part);
}
