import type { Knex } from 'knex';
import type { RecordType } from '../attachments/owner-types.js';
import { reindexRecords } from './derived.js';

/**
 * Called by every writer of record rows outside the records service (CSV imports, WordPress sync) after it
 * inserted, updated or deleted records, inside its own transaction, so the derived data the records service keeps
 * for fast lists and search (docs/decisions/0011-record-search-and-counts.md) stays in step: search text, trigram
 * postings and maintained totals. Passing ids that did not change is harmless. Given the plain Knex instead of a
 * transaction, it opens one of its own.
 */
export async function recordsChanged(db: Knex | Knex.Transaction, type: RecordType, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  if ((db as Knex.Transaction).isTransaction) {
    await reindexRecords(db, type, ids);
    return;
  }
  await db.transaction((trx) => reindexRecords(trx, type, ids));
}
