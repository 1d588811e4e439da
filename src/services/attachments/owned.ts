import type { Knex } from 'knex';
import { deleteContactsOf } from '../contacts/writes.js';
import type { FileStorage } from '../files/storage.js';
import { adjustPaymentTotals } from '../payments/totals.js';
import type { RecordType } from '@shared/record-types.js';

type StoredRow = Record<string, unknown>;

/** The rows a record owned when it was deleted, as stored: the delete's history snapshot. */
export interface OwnedRows {
  contacts: StoredRow[];
  payments: StoredRow[];
  files: StoredRow[];
}

/**
 * Deletes the contacts, payments and file rows a record owns, inside the caller's transaction (the record's own
 * delete). Returns them as they were (for the history's snapshot) and the stored paths of the deleted files, so
 * the caller removes their bytes once it has committed.
 */
export async function deleteOwnedRows(trx: Knex.Transaction, entityType: RecordType, entityId: number): Promise<{ owned: OwnedRows }> {
  const owner = { entityType, entityId };
  const owned: OwnedRows = {
    contacts: await deleteContactsOf(trx, entityType, entityId),
    payments: await trx('payments').where(owner).orderBy('id'),
    files: await trx('files').where(owner).orderBy('id'),
  };
  await trx('payments').where(owner).delete();
  await adjustPaymentTotals(trx, owned.payments, []);
  await trx('files').where(owner).delete();
  return { owned };
}

/**
 * Removes stored bytes after the owning rows are gone; a file already missing is not an error, and a path that
 * is not one of our generated names is skipped (the files check reports anything left behind).
 */
export async function removeStoredFiles(storage: FileStorage, storedPaths: readonly string[]): Promise<void> {
  for (const stored of storedPaths) {
    try {
      await storage.remove(stored);
    } catch {
      // Refused keys (never ours) and I/O errors leave the bytes for `pacer files check --fix`.
    }
  }
}
