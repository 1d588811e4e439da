import type { Knex } from 'knex';

type Db = Knex | Knex.Transaction;

/**
 * How much of an owner's notes its search document holds, newest first: enough for every realistic record, and a
 * bound on the document (docs/decisions/0100-notes-tasks-notifications.md).
 */
const MAX_NOTES_TEXT = 200_000;

/**
 * The bodies of the notes of the given owners (records of one type, or contacts), newest first, by owner id: a
 * record's notes are part of its search document, so the list search and the global search find it by them.
 * `ids` is a list of owner ids, or an inclusive id range (a rebuild's batch).
 */
export async function noteTextsOf(
  db: Db,
  ownerType: string,
  ids: readonly number[] | { from: number; to: number },
): Promise<Map<number, string[]>> {
  const query = db('notes').where('entityType', ownerType);
  if (Array.isArray(ids)) {
    if (ids.length === 0) return new Map();
    query.whereIn('entityId', [...ids]);
  } else {
    const range = ids as { from: number; to: number };
    query.whereBetween('entityId', [range.from, range.to]);
  }
  const rows = (await query
    .orderBy([
      { column: 'entityId', order: 'asc' },
      { column: 'createdAt', order: 'desc' },
    ])
    .select('entityId', 'body')) as Array<{ entityId: number; body: string }>;
  const out = new Map<number, string[]>();
  const lengths = new Map<number, number>();
  for (const row of rows) {
    const id = Number(row.entityId);
    const used = lengths.get(id) ?? 0;
    if (used >= MAX_NOTES_TEXT) continue;
    const body = row.body.slice(0, MAX_NOTES_TEXT - used);
    lengths.set(id, used + body.length);
    out.set(id, [...(out.get(id) ?? []), body]);
  }
  return out;
}
