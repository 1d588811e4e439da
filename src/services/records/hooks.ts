import type { Knex } from 'knex';
import { withTransaction } from '../../db/transaction.js';
import type { RecordType } from '../attachments/owner-types.js';
import { definitionOf } from './definitions.js';
import { reindexRecords } from './derived.js';

export interface RecordsChange {
  /**
   * The columns the writer changed, when it knows them. When none of them feeds the derived data (a website, a
   * note), nothing needs reindexing and nothing is read; without it every given record is checked.
   */
  columns?: readonly string[];
}

/**
 * Called by every writer of record rows outside the records service (CSV imports, WordPress sync) after it
 * inserted, updated or deleted records, inside its own transaction, so the derived data the records service keeps
 * for fast lists and search (docs/decisions/0011-record-search-and-counts.md) stays in step: search text, trigram
 * postings and maintained totals. Passing ids that did not change is harmless. Given the plain Knex instead of a
 * transaction, it opens one of its own.
 */
export async function recordsChanged(db: Knex | Knex.Transaction, type: RecordType, ids: readonly number[], change: RecordsChange = {}): Promise<void> {
  if (ids.length === 0) return;
  const derived = definitionOf(type).derivedColumns;
  if (change.columns && !change.columns.some((column) => derived.includes(column))) return;
  await withTransaction({ db }, (trx) => reindexRecords(trx, type, ids));
}
