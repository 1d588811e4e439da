import type { Knex } from 'knex';
import type { RecordType } from './owner-types.js';

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

/** Removes stored bytes after the owning rows are gone; a file already missing is not an error. */
export async function removeStoredFiles(uploadDir: string, storedPaths: readonly string[]): Promise<void> {
  const { rm } = await import('node:fs/promises');
  const path = await import('node:path');
  const base = path.resolve(uploadDir);
  for (const stored of storedPaths) {
    const target = path.resolve(base, stored);
    if (!target.startsWith(base + path.sep)) continue;
    await rm(target, { force: true });
  }
}
