import type { Knex } from 'knex';
import { storageFor } from '../files/storage.js';
import type { RecordType } from '@shared/record-types.js';

/**
 * Deletes the contacts, payments and file rows a record owns, inside the caller's transaction (the record's own
 * delete). Returns the stored paths of the deleted files so the caller removes their bytes once it has committed.
 */
export async function deleteOwnedRows(trx: Knex.Transaction, entityType: RecordType, entityId: number): Promise<string[]> {
  const owner = { entityType, entityId };
  const files = (await trx('files').where(owner).select('filePath')) as Array<{ filePath: string }>;
  await trx('contacts').where(owner).delete();
  await trx('payments').where(owner).delete();
  await trx('files').where(owner).delete();
  return files.map((file) => file.filePath);
}

/**
 * Removes stored bytes after the owning rows are gone; a file already missing is not an error, and a path that
 * is not one of our generated names is skipped (the files check reports anything left behind).
 */
export async function removeStoredFiles(uploadDir: string, storedPaths: readonly string[]): Promise<void> {
  const storage = storageFor(uploadDir);
  for (const stored of storedPaths) {
    try {
      await storage.remove(stored);
    } catch {
      // Refused keys (never ours) and I/O errors leave the bytes for `pacer files check --fix`.
    }
  }
}
