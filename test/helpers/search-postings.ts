import type { Knex } from 'knex';
import { decodeBlock } from '@services/records/postings.js';

/**
 * The trigram postings stored in record_search_grams (of one type, or all), unpacked from their blocks: one
 * { kind, gram, recordId } per posting, in key order. Two indexes with the same postings compare equal.
 */
export async function storedPostings(db: Knex, kind?: number): Promise<Array<{ kind: number; gram: number; recordId: number }>> {
  const query = db('record_search_grams').orderBy(['kind', 'gram', 'block']).select('kind', 'gram', 'block', 'ids');
  if (kind !== undefined) query.where({ kind });
  const rows = (await query) as Array<{ kind: number; gram: number; block: number; ids: Uint8Array }>;
  return rows.flatMap((row) => {
    const ids: number[] = [];
    decodeBlock(Number(row.block), row.ids, ids);
    return ids.map((recordId) => ({ kind: Number(row.kind), gram: Number(row.gram), recordId }));
  });
}
