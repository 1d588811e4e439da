import type { Knex } from 'knex';
import { decodeTimestamp, encodeTimestamp } from '@db/codecs.js';
import type { NoteOwnerType } from '@shared/schemas/notes.js';
import type { AppNotification, AttentionCounts, NotificationList } from '@shared/schemas/tasks.js';
import * as z from 'zod';
import type { Actor, AppContext } from '../context.js';
import { unauthorized } from '../errors.js';
import { ownerUrl } from '../notes/owners.js';
import { parseInput } from '../validate.js';
import { orgToday } from '../tasks/time.js';

type Db = Knex | Knex.Transaction;

export interface NewNotification {
  userId: number;
  kind: AppNotification['kind'];
  actorId: number | null;
  noteId?: number | null;
  taskId?: number | null;
  entityType?: NoteOwnerType | null;
  entityId?: number | null;
  text: string;
}

/** Adds notifications to users' bells, in the caller's transaction. */
export async function notify(trx: Knex.Transaction, ctx: AppContext, items: readonly NewNotification[]): Promise<void> {
  if (items.length === 0) return;
  const createdAt = encodeTimestamp(ctx.clock.now());
  await trx('notifications').insert(
    items.map((item) => ({
      userId: item.userId,
      kind: item.kind,
      actorId: item.actorId,
      noteId: item.noteId ?? null,
      taskId: item.taskId ?? null,
      entityType: item.entityType ?? null,
      entityId: item.entityId ?? null,
      text: item.text.slice(0, 500),
      createdAt,
      readAt: null,
    })),
  );
}

const me = (actor: Actor): number => {
  if (actor.userId === null) throw unauthorized();
  return actor.userId;
};

/** GET /api/notifications: my newest 30, with the unread count. */
export async function listNotifications(ctx: AppContext, actor: Actor): Promise<NotificationList> {
  const userId = me(actor);
  const rows = (await ctx.db('notifications').where({ userId }).orderBy('id', 'desc').limit(30)) as Array<Record<string, unknown>>;
  const items: AppNotification[] = rows.map((row) => ({
    id: Number(row.id),
    kind: row.kind as AppNotification['kind'],
    text: String(row.text),
    url:
      row.kind === 'mention' && row.entityType && row.entityId
        ? ownerUrl(row.entityType as NoteOwnerType, Number(row.entityId))
        : row.kind === 'alert'
          ? '/jobs'
          : '/tasks',
    createdAt: decodeTimestamp(row.createdAt)!,
    read: row.readAt !== null,
  }));
  return { items, unread: await unreadCount(ctx.db, userId) };
}

async function unreadCount(db: Db, userId: number): Promise<number> {
  const row = (await db('notifications').where({ userId }).whereNull('readAt').count({ n: '*' }).first()) as
    { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}

export const MarkReadSchema = z
  .object({ ids: z.array(z.number().int().positive()).max(500).optional(), all: z.literal(true).optional() })
  .strict()
  .refine((body) => body.ids !== undefined || body.all === true, { message: 'Send ids, or all: true' });

/** POST /api/notifications/read {ids} or {all: true}: only ever my own. */
export async function markNotificationsRead(ctx: AppContext, actor: Actor, body: unknown): Promise<{ unread: number }> {
  const userId = me(actor);
  const input = parseInput(MarkReadSchema, body);
  const query = ctx.db('notifications').where({ userId }).whereNull('readAt');
  if (!input.all) query.whereIn('id', input.ids!);
  await query.update({ readAt: encodeTimestamp(ctx.clock.now()) });
  return { unread: await unreadCount(ctx.db, userId) };
}

/**
 * The layout's counts: my open tasks due by today, and my unread notifications. Every page's layout reads them, so
 * they are one statement (two subqueries, each on its index), not two.
 */
export async function attentionCounts(ctx: AppContext, userId: number): Promise<AttentionCounts> {
  const today = orgToday(ctx);
  const [row] = (await ctx.db.select(
    ctx.db('tasks').where({ assigneeId: userId, done: false }).where('dueDate', '<=', today).count('*').as('tasksDue'),
    ctx.db('notifications').where({ userId }).whereNull('readAt').count('*').as('unread'),
  )) as Array<{ tasksDue: number | string; unread: number | string }>;
  return { tasksDue: Number(row?.tasksDue ?? 0), unread: Number(row?.unread ?? 0) };
}
