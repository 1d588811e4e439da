import type { Knex } from 'knex';
import { decodeRow } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import type { Contact } from '@shared/schemas/attachments.js';
import type { ContactOwnerType } from '@shared/record-types.js';

type Db = Knex | Knex.Transaction;
const decode = (row: Record<string, unknown>) => decodeRow<Contact>(columnKinds.contacts, row);

export async function findContact(db: Db, id: number): Promise<Contact | undefined> {
  const row = (await db('contacts').where({ id }).first()) as Record<string, unknown> | undefined;
  return row ? decode(row) : undefined;
}

/** Primary first, then by name, so the list reads the same everywhere. */
export async function listContactsOf(db: Db, entityType: ContactOwnerType, entityId: number): Promise<Contact[]> {
  const rows = (await db('contacts')
    .where({ entityType, entityId })
    .orderBy([{ column: 'isPrimary', order: 'desc' }, 'lastName', 'firstName', 'id'])) as Array<Record<string, unknown>>;
  return rows.map(decode);
}

/** The contacts of the given ids in id order, locked for update when a bulk change reads them first. */
export async function findContactsByIds(db: Db, ids: readonly number[], options: { forUpdate?: boolean } = {}): Promise<Contact[]> {
  const query = db('contacts')
    .whereIn('id', [...ids])
    .orderBy('id');
  if (options.forUpdate) query.forUpdate();
  return ((await query) as Array<Record<string, unknown>>).map(decode);
}
