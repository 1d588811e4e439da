import type { Knex } from 'knex';
import { encodeTimestamp } from '@db/codecs.js';

/** A file row pointing at `key`, as an upload leaves it (the bytes are the test's business). */
export async function insertFileRow(db: Knex, key: string, size: number): Promise<number> {
  const [id] = (await db('files').insert({
    entityType: 'event',
    entityId: 1,
    fileName: key,
    originalName: 'photo.png',
    filePath: key,
    fileType: 'image/png',
    fileSize: size,
    fileCategory: 'image',
    uploadedAt: encodeTimestamp(new Date()),
  })) as number[];
  return Number(id);
}

/** A deleted record in Recently deleted that kept one file, stored under `key`, until the purge. */
export async function insertTrashedFile(db: Knex, key: string): Promise<void> {
  const snapshot = {
    record: { id: 77, eventName: 'Gone' },
    children: [],
    owned: { contacts: [], payments: [], files: [{ id: 900, filePath: key }] },
  };
  await db('deleted_items').insert({
    entityType: 'event',
    entityId: 77,
    name: 'Gone',
    holds: JSON.stringify({ contacts: 0, payments: 0, files: 1 }),
    snapshot: JSON.stringify(snapshot),
    deletedByLabel: 'test',
    deletedAt: encodeTimestamp(new Date()),
  });
}
