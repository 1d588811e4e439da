import type { Knex } from 'knex';
import { decodeRow, encodeRow } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import type { StoredFile } from '@shared/schemas/attachments.js';
import type { RecordType } from '@shared/record-types.js';

type Db = Knex | Knex.Transaction;

export type FileRow = Omit<StoredFile, 'url'> & { filePath: string };

const decode = (row: Record<string, unknown>) => decodeRow<FileRow>(columnKinds.files, row);

export async function findFileRow(db: Db, id: number): Promise<FileRow | undefined> {
  const row = (await db('files').where({ id }).first()) as Record<string, unknown> | undefined;
  return row ? decode(row) : undefined;
}

/** The rows of the given ids, in the order the ids are given (missing ids are left out). */
export async function findFileRows(db: Db, ids: readonly number[]): Promise<FileRow[]> {
  if (ids.length === 0) return [];
  const rows = ((await db('files').whereIn('id', ids)) as Array<Record<string, unknown>>).map(decode);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function listFileRows(db: Db, entityType: RecordType, entityId: number): Promise<FileRow[]> {
  const rows = (await db('files')
    .where({ entityType, entityId })
    .orderBy([
      { column: 'uploadedAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])) as Array<Record<string, unknown>>;
  return rows.map(decode);
}

export async function insertFileRow(trx: Db, values: Record<string, unknown>): Promise<number> {
  const [inserted] = (await trx('files').insert(encodeRow(columnKinds.files, values))) as number[];
  return Number(inserted);
}

export async function deleteFileRow(trx: Db, id: number): Promise<number> {
  return trx('files').where({ id }).delete();
}

export async function allStoredPaths(db: Db): Promise<Array<{ id: number; filePath: string }>> {
  return (await db('files').select('id', 'filePath').orderBy('id')) as Array<{ id: number; filePath: string }>;
}

export async function deleteFileRows(db: Db, ids: readonly number[]): Promise<number> {
  return ids.length ? db('files').whereIn('id', ids).delete() : 0;
}
