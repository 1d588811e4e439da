import type { Knex } from 'knex';
import { decodeTimestamp, encodeTimestamp } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import { mentionedEmails } from '@shared/note-format.js';
import {
  NoteInputSchema,
  NoteUpdateSchema,
  type MentionableUser,
  type Note,
  type NoteList,
  type NoteOwnerType,
} from '@shared/schemas/notes.js';
import type { Actor, AppContext } from '../context.js';
import { forbidden, notFound } from '../errors.js';
import { historyActorOf } from '../history/service.js';
import { reindexContacts, reindexRecords } from '../records/derived.js';
import { requireRole } from '../roles.js';
import { putItemInTrash } from '../trash/items.js';
import { parseInput } from '../validate.js';
import { notify } from '../notifications/service.js';
import { assertNoteOwner, ownerNames, userNames } from './owners.js';

type Db = Knex | Knex.Transaction;
type StoredRow = Record<string, unknown>;

/** Keeps the owner's search document (which holds its notes' words) in step, in the note write's transaction. */
async function reindexNoteOwner(trx: Knex.Transaction, type: NoteOwnerType, id: number): Promise<void> {
  if (type === 'contact') await reindexContacts(trx, [id]);
  else await reindexRecords(trx, type, [id]);
}

async function present(db: Db, rows: StoredRow[]): Promise<Note[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => Number(row.id));
  const mentions = (await db('note_mentions').whereIn('noteId', ids).orderBy(['noteId', 'userId'])) as Array<{
    noteId: number;
    userId: number;
  }>;
  const names = await userNames(
    db,
    rows.map((row) => (row.createdBy === null ? null : Number(row.createdBy))),
  );
  return rows.map((row) => ({
    id: Number(row.id),
    entityType: row.entityType as NoteOwnerType,
    entityId: Number(row.entityId),
    body: String(row.body),
    pinned: row.pinned === true || Number(row.pinned) === 1,
    createdBy: row.createdBy === null ? null : Number(row.createdBy),
    authorName: row.createdBy === null ? 'Pacer' : (names.get(Number(row.createdBy)) ?? 'Former user'),
    createdAt: decodeTimestamp(row.createdAt)!,
    updatedAt: decodeTimestamp(row.updatedAt)!,
    editedAt: decodeTimestamp(row.editedAt),
    mentions: mentions.filter((m) => Number(m.noteId) === Number(row.id)).map((m) => Number(m.userId)),
  }));
}

async function findNoteRow(db: Db, id: number): Promise<StoredRow> {
  const row = (await db('notes').where({ id }).first()) as StoredRow | undefined;
  if (!row) throw notFound('Note not found');
  return row;
}

/** GET /api/notes?entityType=&entityId=: pinned first, then newest first. */
export async function listNotes(ctx: AppContext, type: NoteOwnerType, id: number): Promise<NoteList> {
  await assertNoteOwner(ctx.db, type, id);
  const rows = (await ctx
    .db('notes')
    .where({ entityType: type, entityId: id })
    .orderBy([
      { column: 'pinned', order: 'desc' },
      { column: 'createdAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(500)) as StoredRow[];
  return { items: await present(ctx.db, rows) };
}

async function getNote(ctx: AppContext, id: number): Promise<Note> {
  return (await present(ctx.db, [await findNoteRow(ctx.db, id)]))[0]!;
}

/** Active users a note may @mention. */
export async function mentionableUsers(ctx: AppContext): Promise<MentionableUser[]> {
  const rows = (await ctx
    .db('users')
    .where({ isActive: true })
    .orderBy(['firstName', 'lastName', 'email'])
    .select('id', 'firstName', 'lastName', 'email')) as Array<Record<string, unknown>>;
  return rows.map((row) => ({
    id: Number(row.id),
    name: `${String(row.firstName ?? '')} ${String(row.lastName ?? '')}`.trim() || String(row.email),
    email: String(row.email),
  }));
}

/** The active users a body @mentions, by their email addresses. */
async function mentionedUsers(db: Db, body: string): Promise<number[]> {
  const emails = mentionedEmails(body);
  if (emails.length === 0) return [];
  const rows = (await db('users')
    .whereIn(db.raw('LOWER(??)', ['email']) as unknown as string, emails)
    .where({ isActive: true })
    .select('id')) as Array<{
    id: number;
  }>;
  return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
}

/** Stores a note's mentions and notifies each newly mentioned user (never the author). */
async function saveMentions(trx: Knex.Transaction, ctx: AppContext, actor: Actor, note: StoredRow, body: string, before: number[]) {
  const users = await mentionedUsers(trx, body);
  const noteId = Number(note.id);
  await trx('note_mentions').where({ noteId }).delete();
  if (users.length) await trx('note_mentions').insert(users.map((userId) => ({ noteId, userId })));
  const fresh = users.filter((userId) => !before.includes(userId) && userId !== actor.userId);
  if (fresh.length === 0) return;
  const type = note.entityType as NoteOwnerType;
  const ownerId = Number(note.entityId);
  const owner = (await ownerNames(trx, [{ type, id: ownerId }])).get(`${type}:${ownerId}`) ?? 'a record';
  const who = (await historyActorOf(trx, actor)).label;
  await notify(
    trx,
    ctx,
    fresh.map((userId) => ({
      userId,
      kind: 'mention' as const,
      actorId: actor.userId,
      noteId,
      entityType: type,
      entityId: ownerId,
      text: `${who} mentioned you in a note on ${owner}`.slice(0, 500),
    })),
  );
}

/** POST /api/notes */
export async function createNote(ctx: AppContext, actor: Actor, body: unknown): Promise<Note> {
  requireRole(actor, 'staff');
  const input = parseInput(NoteInputSchema, body);
  const now = encodeTimestamp(ctx.clock.now());
  const id = await withTransaction(ctx, async (trx) => {
    await assertNoteOwner(trx, input.entityType, input.entityId);
    const row = {
      entityType: input.entityType,
      entityId: input.entityId,
      body: input.body,
      pinned: false,
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
      editedAt: null,
    };
    const [inserted] = (await trx('notes').insert(row)) as number[];
    const noteId = Number(inserted);
    await saveMentions(trx, ctx, actor, { ...row, id: noteId }, input.body, []);
    await reindexNoteOwner(trx, input.entityType, input.entityId);
    return noteId;
  });
  ctx.log.info({ event: 'note_created', noteId: id, owner: `${input.entityType}:${input.entityId}` }, 'note created');
  return getNote(ctx, id);
}

/** Only a note's author or an admin changes or deletes it. */
function assertMayChange(actor: Actor, row: StoredRow) {
  if (actor.role === 'admin' || (row.createdBy !== null && Number(row.createdBy) === actor.userId)) return;
  throw forbidden('Only the author of a note or an admin can change or delete it');
}

/** PUT /api/notes/:id: the body (marked edited) and/or the pin. */
export async function updateNote(ctx: AppContext, actor: Actor, id: number, body: unknown): Promise<Note> {
  requireRole(actor, 'staff');
  const input = parseInput(NoteUpdateSchema, body);
  await withTransaction(ctx, async (trx) => {
    const row = await findNoteRow(trx, id);
    if (input.body !== undefined) assertMayChange(actor, row);
    const now = encodeTimestamp(ctx.clock.now());
    const changes: StoredRow = { updatedAt: now };
    if (input.pinned !== undefined) changes.pinned = input.pinned;
    const bodyChanged = input.body !== undefined && input.body !== row.body;
    if (bodyChanged) {
      changes.body = input.body;
      changes.editedAt = now;
    }
    await trx('notes').where({ id }).update(changes);
    if (bodyChanged) {
      const before = ((await trx('note_mentions').where({ noteId: id }).pluck('userId')) as number[]).map(Number);
      await saveMentions(trx, ctx, actor, row, input.body!, before);
      await reindexNoteOwner(trx, row.entityType as NoteOwnerType, Number(row.entityId));
    }
  });
  ctx.log.info({ event: 'note_updated', noteId: id, userId: actor.userId }, 'note updated');
  return getNote(ctx, id);
}

/** DELETE /api/notes/:id: the note goes to Recently deleted, from where it can be restored (or undone). */
export async function deleteNote(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  requireRole(actor, 'staff');
  await withTransaction(ctx, async (trx) => {
    const row = await findNoteRow(trx, id);
    assertMayChange(actor, row);
    const mentions = (await trx('note_mentions').where({ noteId: id }).orderBy('userId')) as StoredRow[];
    await putItemInTrash(trx, ctx, await historyActorOf(trx, actor), 'note', { row, mentions });
    await trx('note_mentions').where({ noteId: id }).delete();
    await trx('notes').where({ id }).delete();
    await reindexNoteOwner(trx, row.entityType as NoteOwnerType, Number(row.entityId));
  });
  ctx.log.info({ event: 'note_deleted', noteId: id, userId: actor.userId }, 'note deleted');
}
