import type { Knex } from 'knex';
import { encodeTimestamp } from '@db/codecs.js';
import { RECORD_TYPE_INFO } from '@shared/record-types.js';
import type { NoteOwnerType } from '@shared/schemas/notes.js';
import type { AppContext } from '../context.js';
import { conflict } from '../errors.js';
import type { HistoryActor } from '../history/service.js';
import { reindexContacts, reindexRecords } from '../records/derived.js';

type StoredRow = Record<string, unknown>;

/** Notes and tasks in Recently deleted: the row as stored (and a note's mentions), put back with the same id. */
export type TrashedItemKind = 'note' | 'task';
export interface ItemSnapshot {
  row: StoredRow;
  mentions?: StoredRow[];
}

const NO_HOLDS = JSON.stringify({ contacts: 0, payments: 0, files: 0 });

const nameOf = (kind: TrashedItemKind, row: StoredRow) =>
  (kind === 'note' ? String(row.body).replace(/\s+/g, ' ').trim() : String(row.title)).slice(0, 120);

/** Keeps a deleted note or task in Recently deleted, in the delete's transaction. */
export async function putItemInTrash(
  trx: Knex.Transaction,
  ctx: AppContext,
  who: HistoryActor,
  kind: TrashedItemKind,
  snapshot: ItemSnapshot,
): Promise<void> {
  await trx('deleted_items').insert({
    entityType: kind,
    entityId: Number(snapshot.row.id),
    name: nameOf(kind, snapshot.row),
    holds: NO_HOLDS,
    snapshot: JSON.stringify(snapshot),
    deletedBy: who.actorId,
    deletedByLabel: who.label,
    deletedAt: encodeTimestamp(ctx.clock.now()),
  });
}

async function ownerExists(trx: Knex.Transaction, type: NoteOwnerType, id: number): Promise<boolean> {
  const table = type === 'contact' ? 'contacts' : RECORD_TYPE_INFO[type].table;
  return Boolean(await trx(table).where({ id }).first('id'));
}

/** Rows are read with dateStrings on MySQL, so the snapshot holds every value as it is stored. */
const asStored = (row: StoredRow): StoredRow => ({ ...row });

/** Puts a deleted note or task back, in the restore's transaction; its owner must exist (restore that first). */
export async function restoreItem(trx: Knex.Transaction, kind: TrashedItemKind, snapshot: ItemSnapshot): Promise<void> {
  const row = asStored(snapshot.row);
  const type = (row.entityType ?? null) as NoteOwnerType | null;
  const ownerId = row.entityId === null || row.entityId === undefined ? null : Number(row.entityId);
  const what = kind === 'note' ? 'The note' : 'The task';
  if (type && ownerId !== null && !(await ownerExists(trx, type, ownerId)))
    throw conflict(`${what} cannot be restored while what it belongs to is deleted: restore that first`);
  if (
    await trx(kind === 'note' ? 'notes' : 'tasks')
      .where({ id: row.id })
      .first('id')
  )
    throw conflict(`${what} cannot be restored: its id is taken`);
  if (kind === 'task') {
    if (!(await trx('users').where({ id: row.assigneeId }).first('id')))
      throw conflict('The task cannot be restored: its assignee was removed');
    await trx('tasks').insert(row);
    return;
  }
  await trx('notes').insert(row);
  const users = (snapshot.mentions ?? []).map((m) => Number(m.userId));
  const present = users.length ? ((await trx('users').whereIn('id', users).pluck('id')) as number[]).map(Number) : [];
  if (present.length) await trx('note_mentions').insert(present.map((userId) => ({ noteId: row.id, userId })));
  if (type === 'contact') await reindexContacts(trx, [ownerId!]);
  else if (type) await reindexRecords(trx, type, [ownerId!]);
}
