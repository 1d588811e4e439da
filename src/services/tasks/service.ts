import type { Knex } from 'knex';
import { decodeTimestamp, encodeTimestamp } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import { PAGE_SIZE } from '@shared/list-options.js';
import type { NoteOwnerType } from '@shared/schemas/notes.js';
import { NOTE_OWNER_TYPES } from '@shared/schemas/notes.js';
import { TaskInputSchema, TaskUpdateSchema, type Task, type TaskPage } from '@shared/schemas/tasks.js';
import type { Actor, AppContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { historyActorOf } from '../history/service.js';
import { notify } from '../notifications/service.js';
import { assertNoteOwner, joinedOwnerName, joinedUserName, withNames } from '../notes/owners.js';
import { requireRole } from '../roles.js';
import { putItemInTrash } from '../trash/items.js';
import { parseInput } from '../validate.js';
import { addDays, orgTimeOfDay, orgToday } from './time.js';

type Db = Knex | Knex.Transaction;
type StoredRow = Record<string, unknown>;

const isTrue = (value: unknown) => value === true || value === 1 || value === '1';

/** Rows read withNames (tasksWithNames) as the API answers them. */
function present(ctx: AppContext, rows: StoredRow[]): Task[] {
  const today = orgToday(ctx);
  const now = orgTimeOfDay(ctx);
  return rows.map((row) => {
    const done = isTrue(row.done);
    const dueDate = String(row.dueDate).slice(0, 10);
    const dueTime = row.dueTime ? String(row.dueTime) : null;
    const entityType = (row.entityType ?? null) as NoteOwnerType | null;
    const entityId = row.entityId === null || row.entityId === undefined ? null : Number(row.entityId);
    return {
      id: Number(row.id),
      title: String(row.title),
      notes: (row.notes as string | null) ?? null,
      dueDate,
      dueTime,
      assigneeId: Number(row.assigneeId),
      assigneeName: joinedUserName(row, 'assigneeId') ?? 'Former user',
      entityType,
      entityId,
      entityName: joinedOwnerName(row),
      done,
      doneAt: decodeTimestamp(row.doneAt),
      doneBy: row.doneBy === null ? null : Number(row.doneBy),
      doneByName: row.doneBy === null ? null : (joinedUserName(row, 'doneBy') ?? 'Former user'),
      createdBy: row.createdBy === null ? null : Number(row.createdBy),
      createdAt: decodeTimestamp(row.createdAt)!,
      updatedAt: decodeTimestamp(row.updatedAt)!,
      overdue: !done && (dueDate < today || (dueDate === today && dueTime !== null && dueTime < now)),
    };
  });
}

async function findTaskRow(db: Db, id: number): Promise<StoredRow> {
  const row = (await db('tasks').where({ id }).first()) as StoredRow | undefined;
  if (!row) throw notFound('Task not found');
  return row;
}

/** Tasks with the names of their assignee, finisher and record joined in (one statement; columns named tasks.x). */
const tasksWithNames = (db: Db) => withNames(db('tasks'), 'tasks', ['assigneeId', 'doneBy']);

export async function getTask(ctx: AppContext, id: number): Promise<Task> {
  const rows = (await tasksWithNames(ctx.db).where('tasks.id', id)) as StoredRow[];
  if (!rows[0]) throw notFound('Task not found');
  return present(ctx, rows)[0]!;
}

/** GET /api/tasks's parameters, parsed. */
export interface TaskQuery {
  assignee?: 'me' | number;
  status: 'open' | 'done' | 'all';
  due?: 'overdue' | 'today' | 'week';
  entityType?: NoteOwnerType;
  entityId?: number;
  after?: string;
  limit: number;
}

const positive = (value: string, name: string) => {
  if (!/^\d{1,10}$/.test(value) || Number(value) < 1) throw badRequest(`${name} must be a positive whole number`);
  return Number(value);
};

export function readTaskQuery(query: URLSearchParams): TaskQuery {
  // A page as long as every other list's (PAGE_SIZE) unless `limit` asks for another.
  const out: TaskQuery = { status: 'open', limit: PAGE_SIZE };
  const assignee = query.get('assignee');
  if (assignee) out.assignee = assignee === 'me' ? 'me' : positive(assignee, 'assignee (me or a user id)');
  const status = query.get('status');
  if (status) {
    if (status !== 'open' && status !== 'done' && status !== 'all') throw badRequest('status must be open, done or all');
    out.status = status;
  }
  const due = query.get('due');
  if (due) {
    if (due !== 'overdue' && due !== 'today' && due !== 'week') throw badRequest('due must be overdue, today or week');
    out.due = due;
  }
  const type = query.get('entityType');
  const id = query.get('entityId');
  if (type || id) {
    if (!type || !id) throw badRequest('Give both entityType and entityId, or neither');
    if (!(NOTE_OWNER_TYPES as readonly string[]).includes(type))
      throw badRequest(`entityType must be one of ${NOTE_OWNER_TYPES.join(', ')}`);
    out.entityType = type as NoteOwnerType;
    out.entityId = positive(id, 'entityId');
  }
  const limit = query.get('limit');
  if (limit) {
    out.limit = positive(limit, 'limit');
    if (out.limit > 200) throw badRequest('limit must be at most 200');
  }
  const after = query.get('after');
  if (after) out.after = after;
  return out;
}

/** The order of a list: open (and all) by due day and time; done by when, newest first. Each ends with the id. */
const ORDER = {
  due: [
    ['done', 'asc'],
    ['dueDate', 'asc'],
    ['dueTime', 'asc'],
    ['id', 'asc'],
  ],
  done: [
    ['doneAt', 'desc'],
    ['id', 'desc'],
  ],
} as const;
type Position = Array<string | number>;

function encodeTaskCursor(order: keyof typeof ORDER, values: Position): string {
  return Buffer.from(JSON.stringify([order, ...values])).toString('base64url');
}

function decodeTaskCursor(text: string, order: keyof typeof ORDER): Position {
  try {
    if (text.length > 400) throw new Error('long');
    const parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(parsed) || parsed[0] !== order || parsed.length !== ORDER[order].length + 1) throw new Error('shape');
    const values = parsed.slice(1) as unknown[];
    if (!values.every((value) => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))))
      throw new Error('values');
    return values as Position;
  } catch {
    throw badRequest('after is not a cursor of this list (use the next value of the previous page)');
  }
}

/** Rows after `position` in `columns`' order: (a > x) or (a = x and b > y) or ... */
function seek(query: Knex.QueryBuilder, columns: ReadonlyArray<readonly [string, 'asc' | 'desc']>, position: Position) {
  query.where((outer) => {
    columns.forEach(([column, dir], i) => {
      outer.orWhere((inner) => {
        for (let j = 0; j < i; j++) inner.where(columns[j]![0], position[j]!);
        inner.where(column, dir === 'asc' ? '>' : '<', position[i]!);
      });
    });
  });
}

/** GET /api/tasks */
export async function listTasks(ctx: AppContext, actor: Actor, query: TaskQuery): Promise<TaskPage> {
  const today = orgToday(ctx);
  const builder = tasksWithNames(ctx.db);
  const inTasks = (name: string) => `tasks.${name}`;
  if (query.assignee === 'me') builder.where(inTasks('assigneeId'), actor.userId ?? 0);
  else if (query.assignee !== undefined) builder.where(inTasks('assigneeId'), query.assignee);
  if (query.status !== 'all') builder.where(inTasks('done'), query.status === 'done');
  if (query.entityType) builder.where(inTasks('entityType'), query.entityType).where(inTasks('entityId'), query.entityId!);
  if (query.due === 'overdue') {
    const now = orgTimeOfDay(ctx);
    builder.where(inTasks('done'), false).where((where) => {
      where
        .where(inTasks('dueDate'), '<', today)
        .orWhere((sameDay) =>
          sameDay.where(inTasks('dueDate'), today).where(inTasks('dueTime'), '<>', '').where(inTasks('dueTime'), '<', now),
        );
    });
  } else if (query.due === 'today') builder.where(inTasks('dueDate'), today);
  else if (query.due === 'week') builder.whereBetween(inTasks('dueDate'), [today, addDays(today, 6)]);
  const order = query.status === 'done' ? 'done' : 'due';
  const columns = ORDER[order];
  const qualified = columns.map(([name, dir]) => [inTasks(name), dir] as const);
  if (query.after) seek(builder, qualified, decodeTaskCursor(query.after, order));
  const rows = (await builder
    .orderBy(qualified.map(([name, dir]) => ({ column: name, order: dir })))
    .limit(query.limit + 1)) as StoredRow[];
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  const next =
    rows.length > query.limit && last
      ? encodeTaskCursor(
          order,
          columns.map(([column]) =>
            column === 'done'
              ? isTrue(last.done)
                ? 1
                : 0
              : column === 'id'
                ? Number(last.id)
                : column === 'doneAt'
                  ? String(last.doneAt)
                  : String(last[column]),
          ),
        )
      : null;
  return { items: present(ctx, page), next, today };
}

async function assertAssignee(db: Db, userId: number): Promise<void> {
  const row = (await db('users').where({ id: userId }).first('isActive')) as { isActive: unknown } | undefined;
  if (!row || !isTrue(row.isActive)) throw badRequest('assigneeId must be an active user');
}

async function notifyAssignment(trx: Knex.Transaction, ctx: AppContext, actor: Actor, taskId: number, assigneeId: number, title: string) {
  if (assigneeId === actor.userId) return;
  const who = (await historyActorOf(trx, actor)).label;
  await notify(trx, ctx, [
    { userId: assigneeId, kind: 'assignment', actorId: actor.userId, taskId, text: `${who} assigned you a task: ${title}` },
  ]);
}

/** POST /api/tasks */
export async function createTask(ctx: AppContext, actor: Actor, body: unknown): Promise<Task> {
  requireRole(actor, 'staff');
  const input = parseInput(TaskInputSchema, body);
  const now = encodeTimestamp(ctx.clock.now());
  const id = await withTransaction(ctx, async (trx) => {
    await assertAssignee(trx, input.assigneeId);
    if (input.entityType && input.entityId) await assertNoteOwner(trx, input.entityType, input.entityId);
    const [inserted] = (await trx('tasks').insert({
      title: input.title,
      notes: input.notes,
      dueDate: input.dueDate,
      dueTime: input.dueTime ?? '',
      assigneeId: input.assigneeId,
      entityType: input.entityType,
      entityId: input.entityId,
      done: false,
      doneAt: null,
      doneBy: null,
      createdBy: actor.userId,
      createdAt: now,
      updatedAt: now,
    })) as number[];
    await notifyAssignment(trx, ctx, actor, Number(inserted), input.assigneeId, input.title);
    return Number(inserted);
  });
  ctx.log.info({ event: 'task_created', taskId: id, userId: actor.userId }, 'task created');
  return getTask(ctx, id);
}

/** PUT /api/tasks/:id: the fields sent change; `done: true` completes it (who and when), `done: false` reopens it. */
export async function updateTask(ctx: AppContext, actor: Actor, id: number, body: unknown): Promise<Task> {
  requireRole(actor, 'staff');
  const input = parseInput(TaskUpdateSchema, body);
  await withTransaction(ctx, async (trx) => {
    const row = await findTaskRow(trx, id);
    const changes: StoredRow = { updatedAt: encodeTimestamp(ctx.clock.now()) };
    for (const key of ['title', 'notes', 'dueDate', 'entityType', 'entityId'] as const)
      if (input[key] !== undefined) changes[key] = input[key];
    if (input.dueTime !== undefined) changes.dueTime = input.dueTime ?? '';
    if (input.entityType && input.entityId) await assertNoteOwner(trx, input.entityType, input.entityId);
    if (input.assigneeId !== undefined && input.assigneeId !== Number(row.assigneeId)) {
      await assertAssignee(trx, input.assigneeId);
      changes.assigneeId = input.assigneeId;
      await notifyAssignment(trx, ctx, actor, id, input.assigneeId, input.title ?? String(row.title));
    }
    if (input.done !== undefined && input.done !== isTrue(row.done)) {
      changes.done = input.done;
      changes.doneAt = input.done ? changes.updatedAt : null;
      changes.doneBy = input.done ? actor.userId : null;
    }
    await trx('tasks').where({ id }).update(changes);
  });
  ctx.log.info({ event: 'task_updated', taskId: id, userId: actor.userId }, 'task updated');
  return getTask(ctx, id);
}

/** DELETE /api/tasks/:id: to Recently deleted. */
export async function deleteTask(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  requireRole(actor, 'staff');
  await withTransaction(ctx, async (trx) => {
    const row = await findTaskRow(trx, id);
    await putItemInTrash(trx, ctx, await historyActorOf(trx, actor), 'task', { row });
    await trx('tasks').where({ id }).delete();
  });
  ctx.log.info({ event: 'task_deleted', taskId: id, userId: actor.userId }, 'task deleted');
}
