import type { Knex } from 'knex';
import { insertRowsInBulk } from '@db/bulk-rows.js';
import { encodeRow } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { dialectOfDb } from '@db/knex.js';
import type { ContactOwnerType, RecordType } from '@shared/record-types.js';
import { CONTACT_INDEX } from '../records/definitions.js';
import { indexInsertedContacts, reindexContacts } from '../records/derived.js';
import { refreshDuplicates, touchesDuplicateKeys } from '../duplicates/derived.js';

/**
 * The only code that writes the contacts table. Every function here brings the contacts' search documents
 * (docs/decisions/0011-record-search-and-counts.md) in line with what it wrote, in the caller's transaction, so the
 * directory and the palette never miss a contact or find a removed one: the contact screens and API, bulk tagging,
 * the CSV imports, a record's delete (its contacts go with it), a restore from Recently deleted and the demo seed
 * all write through here. test/unit/record-writes.test.ts fails on a write to contacts anywhere else.
 */

type Trx = Knex.Transaction;
type StoredRow = Record<string, unknown>;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Reindexes the written contacts, unless the write named its columns and none of them is searched. */
async function contactsChanged(trx: Trx, ids: readonly number[], columns?: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  if (!columns || columns.some((column) => CONTACT_INDEX.derivedColumns.includes(column))) await reindexContacts(trx, ids);
  if (touchesDuplicateKeys('contact', columns)) await refreshDuplicates(trx, 'contact', ids);
}

export async function insertContact(trx: Trx, values: Record<string, unknown>): Promise<number> {
  const [inserted] = (await trx('contacts').insert(encodeRow(columnKinds.contacts, values))) as number[];
  const id = Number(inserted);
  await contactsChanged(trx, [id]);
  return id;
}

export async function updateContactRow(trx: Trx, id: number, values: Record<string, unknown>): Promise<void> {
  await trx('contacts').where({ id }).update(encodeRow(columnKinds.contacts, values));
  await contactsChanged(trx, [id], Object.keys(values));
}

/** Deletes the contacts of these ids in one statement (a single or a bulk delete); answers how many were there. */
export async function deleteContactRows(trx: Trx, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const deleted = await trx('contacts')
    .whereIn('id', [...ids])
    .delete();
  await contactsChanged(trx, ids);
  return deleted;
}

/** Clears the primary flag on the owner's other contacts (the flag is not searched: nothing to reindex). */
export async function clearOtherPrimaries(trx: Trx, entityType: ContactOwnerType, entityId: number, keepId: number): Promise<void> {
  await trx('contacts').where({ entityType, entityId, isPrimary: true }).whereNot({ id: keepId }).update({ isPrimary: false });
}

/** Deletes a record's contacts (the record's own delete) and answers them as they were stored, oldest first. */
export async function deleteContactsOf(trx: Trx, entityType: RecordType, entityId: number): Promise<StoredRow[]> {
  const rows = (await trx('contacts').where({ entityType, entityId }).orderBy('id')) as StoredRow[];
  if (rows.length === 0) return rows;
  await trx('contacts').where({ entityType, entityId }).delete();
  await contactsChanged(
    trx,
    rows.map((row) => Number(row.id)),
  );
  return rows;
}

/** Puts stored contact rows back with their own ids (a restore from Recently deleted). */
export async function restoreContactRows(trx: Trx, rows: readonly StoredRow[]): Promise<void> {
  for (const part of chunks(rows, dialectOfDb(trx) === 'sqlite' ? 400 : 1000)) await trx('contacts').insert(part);
  await contactsChanged(
    trx,
    rows.map((row) => Number(row.id)),
  );
}

const CONTACT_COLUMNS = [
  'firstName',
  'lastName',
  'jobTitle',
  'email',
  'mailchimpTags',
  'entityType',
  'entityId',
  'isPrimary',
  'createdAt',
  'updatedAt',
  'createdBy',
] as const;
type OptionalColumn = 'phone' | 'notes';
/** A contact row as stored: every column of CONTACT_COLUMNS, already encoded (null where the source has none). */
export type ContactInsert = Record<(typeof CONTACT_COLUMNS)[number], string | number | null>;

/**
 * Contacts in bulk (the CSV imports), written the fastest way the database takes many rows (src/db/bulk-rows.ts):
 * the query builder's per-row work costs more than the database itself at 100,000 rows. The new rows are the ones
 * above the highest id seen before inserting: inside this transaction that is exactly ours (SQLite has one writer;
 * on MySQL the consistent snapshot hides other sessions' later inserts), and their ids ascend in the order they were
 * given, so each is indexed as written without reading it back.
 */
export async function insertContactRows(
  trx: Trx,
  contacts: ReadonlyArray<ContactInsert & Partial<Record<OptionalColumn, string | null>>>,
  /** Columns beyond CONTACT_COLUMNS the rows carry (the general import's phone and notes). */
  optional: ReadonlyArray<OptionalColumn> = [],
): Promise<number[]> {
  if (contacts.length === 0) return [];
  const columns = [...CONTACT_COLUMNS, ...optional];
  const highest = (await trx('contacts').max({ id: 'id' }).first()) as { id: number | string | null } | undefined;
  const before = Number(highest?.id ?? 0);
  await insertRowsInBulk(
    trx,
    'contacts',
    columns,
    // Made as they are written, so the database takes one part while the next is made.
    (function* rows() {
      for (const contact of contacts) yield columns.map((column) => contact[column] ?? null);
    })(),
    { count: contacts.length },
  );
  const inserted = (await trx('contacts').where('id', '>', before).orderBy('id').select('id')) as Array<{ id: number }>;
  if (inserted.length !== contacts.length) throw new Error(`Inserted ${contacts.length} contacts but found ${inserted.length} new ids`);
  const ids = inserted.map((row) => Number(row.id));
  await indexInsertedContacts(trx, contacts, ids);
  await refreshDuplicates(trx, 'contact', ids, contacts);
  return ids;
}

/**
 * Moves contacts to another owner (a merge, and its undo): the owner columns are not searched, so nothing is
 * reindexed. Answers how many moved.
 */
export async function moveContactRows(trx: Trx, ids: readonly number[], entityType: ContactOwnerType, entityId: number): Promise<number> {
  let moved = 0;
  for (const part of chunks(ids, 400)) moved += await trx('contacts').whereIn('id', part).update({ entityType, entityId });
  return moved;
}
