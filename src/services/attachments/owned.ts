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
