import type { Knex } from 'knex';
import { decodeTimestamp, encodeTimestamp } from '@db/codecs.js';
import { insertRowsInBulk } from '@db/bulk-rows.js';
import { HISTORY_PAGE_SIZE, type HistoryAction, type HistoryActorKind, type HistoryPage } from '@shared/history.js';
import type { Actor, AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import { eventOfChange, writeWebhookEvents, type OutboxEvent } from '../webhooks/outbox.js';

/** What history is kept of: the six record types, and contacts, payments, files and users. */
export type HistorySubject = string;

/** Who a history entry names, resolved once per write (or once per import or sync run). */
export interface HistoryActor {
  actorId: number | null;
  kind: HistoryActorKind;
  label: string;
  runId: string | null;
}

export interface HistoryChange {
  entityType: HistorySubject;
  entityId: number;
  action: HistoryAction;
  /** Any JSON-safe object: the changed fields, the created values, or the deleted snapshot. */
  changes: object;
  /** The entity as it is after an update or restore, for the webhook event (a create's changes are its values). */
  record?: object;
}

/** Fields a change never reports: bookkeeping the write itself sets. */
const NOT_REPORTED = new Set(['updatedAt', 'createdAt', 'createdBy', 'uploadedAt', 'uploadedBy', 'wordpressLastSync']);

/** The fields whose values differ between two presentations of the same row, with both values. */
export function changedFields(before: object, after: object): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [field, to] of Object.entries(after)) {
    if (NOT_REPORTED.has(field)) continue;
    const from = (before as Record<string, unknown>)[field];
    if (JSON.stringify(from ?? null) !== JSON.stringify(to ?? null)) changes[field] = { from: from ?? null, to: to ?? null };
  }
  return changes;
}

/**
 * The history actor of a write: the signed-in user's name, the OS user of a CLI run, an API token's name, or an import
 * or sync (with its run id) started by any of them.
 */
export async function historyActorOf(db: Knex, actor: Actor, via?: { kind: 'import' | 'sync'; runId: string }): Promise<HistoryActor> {
  let label = actor.osUser ?? 'cli';
  if (actor.userId !== null) {
    const user = (await db('users').where({ id: actor.userId }).first('firstName', 'lastName', 'email')) as
      { firstName: string; lastName: string; email: string } | undefined;
    label = user ? `${user.firstName} ${user.lastName}`.trim() || user.email : `user ${actor.userId}`;
  }
  if (actor.token) label = `API token ${actor.token.name}`;
  return {
    actorId: actor.userId,
    kind: via?.kind ?? (actor.token ? 'token' : actor.source === 'cli' ? 'cli' : 'user'),
    label: label.slice(0, 200),
    runId: via?.runId ?? null,
  };
}

const HISTORY_COLUMNS = [
  'entityType',
  'entityId',
  'ownerType',
  'ownerId',
  'action',
  'at',
  'actorId',
  'actorKind',
  'actorLabel',
  'runId',
  'changes',
] as const;

/** History subjects that belong to a record: their entries show on that record's activity timeline. */
const OWNED_SUBJECTS = new Set(['payment', 'file', 'contact']);

/**
 * The record an entry shows on (docs/decisions/0106): a record's own changes on itself; a payment, file or contact on
 * the record that owns it, read from its values (a create's or delete's changes, an update's record after it).
 */
function ownerOf(change: HistoryChange): [string, number] | [null, null] {
  if (change.entityType === 'user') return [null, null];
  if (!OWNED_SUBJECTS.has(change.entityType)) return [change.entityType, change.entityId];
  const values = (change.record ?? change.changes) as { entityType?: unknown; entityId?: unknown };
  if (typeof values.entityType === 'string' && typeof values.entityId === 'number') return [values.entityType, values.entityId];
  return [null, null];
}

/**
 * Writes history entries in the caller's transaction, so a change and its history commit or roll back together;
 * the webhook events of the changes go into the outbox in the same transaction (src/services/webhooks/outbox.ts).
 * Written in bulk (src/db/bulk-rows.ts), not by Knex's insert builder, whose compiling of thousands of rows cost an
 * import more than the database's own work (bench:import).
 */
export async function recordHistory(
  trx: Knex.Transaction,
  ctx: AppContext,
  who: HistoryActor,
  changes: readonly HistoryChange[],
): Promise<void> {
  if (changes.length === 0) return;
  const at = encodeTimestamp(ctx.clock.now())!;
  await insertRowsInBulk(
    trx,
    'history',
    HISTORY_COLUMNS,
    // Made as they are written, so the database takes one part while the next is made.
    (function* rows() {
      for (const change of changes)
        yield [
          change.entityType,
          change.entityId,
          ...ownerOf(change),
          change.action,
          at,
          who.actorId,
          who.kind,
          who.label,
          who.runId,
          JSON.stringify(change.changes),
        ];
    })(),
    { count: changes.length },
  );
  await writeWebhookEvents(
    trx,
    ctx,
    changes.map(eventOfChange).filter((event): event is OutboxEvent => event !== null),
  );
}

/** Newest first, a page at a time (`GET /api/{type}/{id}/history?page=`). */
export async function getHistory(
  ctx: AppContext,
  entityType: HistorySubject,
  entityId: number,
  pageText: string | null,
): Promise<HistoryPage> {
  const page = pageText === null || pageText === '' ? 1 : Number(pageText);
  if (!Number.isInteger(page) || page < 1 || page > 100_000) throw badRequest('page must be a whole number from 1');
  const where = { entityType, entityId };
  const [rows, count] = await Promise.all([
    ctx
      .db('history')
      .where(where)
      .orderBy('id', 'desc')
      .limit(HISTORY_PAGE_SIZE)
      .offset((page - 1) * HISTORY_PAGE_SIZE),
    ctx.db('history').where(where).count({ n: '*' }).first() as Promise<{ n: number | string } | undefined>,
  ]);
  return {
    total: Number(count?.n ?? 0),
    items: (rows as Array<Record<string, unknown>>).map((row) => ({
      id: Number(row.id),
      at: decodeTimestamp(row.at)!,
      action: row.action as HistoryAction,
      actor: { kind: row.actorKind as HistoryActorKind, label: String(row.actorLabel), runId: (row.runId as string | null) ?? null },
      changes: JSON.parse(String(row.changes)) as Record<string, unknown>,
    })),
  };
}
