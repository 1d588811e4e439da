import type { Knex } from 'knex';
import type { z } from 'zod';
import { dialectOfDb } from '@db/knex.js';
import { badRequest, notFound } from '../errors.js';
import { CONTACT_OWNER_TYPES, RECORD_TYPE_INFO, RECORD_TYPES, type ContactOwnerType, type RecordType } from '@shared/record-types.js';

export function parseRecordType(value: string | undefined): RecordType {
  if (value && (RECORD_TYPES as readonly string[]).includes(value)) return value as RecordType;
  throw badRequest(`entityType must be one of ${RECORD_TYPES.join(', ')}`);
}

export function parseContactOwnerType(value: string | undefined): ContactOwnerType {
  if (value && (CONTACT_OWNER_TYPES as readonly string[]).includes(value)) return value as ContactOwnerType;
  throw badRequest(`entityType must be one of ${CONTACT_OWNER_TYPES.join(', ')}`);
}

/** Ids in paths: digits only, else the thing cannot exist. */
export function parseId(value: string | undefined, what: string): number {
  if (value && /^\d{1,10}$/.test(value) && Number(value) > 0 && Number(value) <= 4_294_967_295) return Number(value);
  throw notFound(`${what} not found`);
}

/** Throws the owner's not-found error unless the record exists. */
export async function assertOwnerExists(db: Knex | Knex.Transaction, type: RecordType, id: number): Promise<void> {
  const row = await db(RECORD_TYPE_INFO[type].table).where({ id }).first('id');
  if (!row) throw notFound(RECORD_TYPE_INFO[type].notFound);
}

/**
 * Locks the owner's row for the rest of the transaction. Every change to an owner's contacts or payments takes
 * this lock first, so concurrent changes to one owner run one after another (the primary flag and the stored
 * totals can never interleave) and a record delete cannot slip in between. SQLite has one writer at a time and
 * no FOR UPDATE, so the existence check alone is enough there.
 */
export async function lockOwner(trx: Knex.Transaction, type: RecordType, id: number): Promise<void> {
  const query = trx(RECORD_TYPE_INFO[type].table).where({ id }).first('id');
  const row = await (dialectOfDb(trx) === 'mysql' ? query.forUpdate() : query);
  if (!row) throw notFound(RECORD_TYPE_INFO[type].notFound);
}

/** Owners to lock, without repeats and in one fixed order, so two transactions locking the same pair cannot deadlock. */
export function ownersInLockOrder<T extends RecordType>(...owners: Array<[T, number]>): Array<[T, number]> {
  const unique = owners.filter(([type, id], index) => owners.findIndex(([t, i]) => t === type && i === id) === index);
  return unique.sort((a, b) => (a[0] === b[0] ? a[1] - b[1] : a[0] < b[0] ? -1 : 1));
}

/**
 * A PUT body merged over the stored values of the schema's own fields (so a PUT may send only what changes); a body
 * that is not a JSON object is passed on as sent and fails validation.
 */
export function mergeOver(schema: z.ZodObject, stored: object, body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const editable = Object.fromEntries(Object.keys(schema.shape).map((key) => [key, (stored as Record<string, unknown>)[key]]));
  return { ...editable, ...body };
}
