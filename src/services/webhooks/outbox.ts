import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { RECORD_TYPES } from '@shared/record-types.js';
import { webhookWants } from '@shared/webhook-events.js';
import type { AppContext } from '../context.js';
import { enabledSubscriptions, insertDeliveries, type DeliveryJob, type NewEvent, type Subscription } from './queries.js';

/** An event as a change states it: its type, what it is about (for ordering), and its data. */
export interface OutboxEvent {
  type: string;
  /** "event:12": deliveries of one subject to one endpoint go out in the order they were written. */
  subjectKey: string | null;
  data: object;
}

/** Random bytes for message ids, drawn 4 KB at a time: one call into the system's generator per 256 ids. */
let idBytes = Buffer.alloc(0);
let idOffset = 0;

/** The Standard Webhooks message id: the same on every attempt and replay of one event to one endpoint. */
export function newMessageId(): string {
  if (idOffset + 16 > idBytes.length) {
    idBytes = randomBytes(4096);
    idOffset = 0;
  }
  idOffset += 16;
  return `msg_${idBytes.toString('base64url', idOffset - 16, idOffset)}`;
}

/** The body every endpoint receives, signed as it is. */
export const eventBody = (type: string, at: Date, data: object) => JSON.stringify({ type, timestamp: at.toISOString(), data });

/**
 * Which endpoints are enabled and what they want, per database, read at most once a second: a write then costs no
 * query when no endpoint is configured. Endpoint changes in this process clear it at once (forgetSubscriptions);
 * another process's (the CLI's) are seen within the second.
 */
const SUBSCRIPTIONS_TTL_MS = 1000;
const subscriptions = new WeakMap<Knex, { at: number; endpoints: Subscription[] }>();

export const forgetSubscriptions = (db: Knex) => void subscriptions.delete(db);

async function subscribed(ctx: AppContext, trx: Knex.Transaction): Promise<Subscription[]> {
  const cached = subscriptions.get(ctx.db);
  if (cached && Date.now() - cached.at < SUBSCRIPTIONS_TTL_MS) return cached.endpoints;
  const endpoints = await enabledSubscriptions(trx);
  subscriptions.set(ctx.db, { at: Date.now(), endpoints });
  return endpoints;
}

/**
 * Told after a transaction that wrote deliveries commits, with their ids (null for a batch, to sweep for): this
 * process's runner sends them (./runner.ts sets it). A runner that sends them itself (`sendsHere`) gets the one
 * delivery of an edit written already claimed, under its lease: claiming it after the commit would cost a statement
 * of its own.
 */
type CommitListener = (deliveries: DeliveryJob[] | null) => void;
const afterCommit = new WeakMap<Knex, { listener: CommitListener; sendsHere: boolean }>();

export function onDeliveriesCommitted(db: Knex, listener: CommitListener | null, sendsHere = false): void {
  if (listener) afterCommit.set(db, { listener, sendsHere });
  else afterCommit.delete(db);
}

/** Until when a delivery claimed now is its runner's: the send's timeout, and a minute to settle it. */
export const leaseFrom = (ctx: AppContext, now: Date) => new Date(now.getTime() + ctx.config.webhooks.timeoutMs + 60_000);

/**
 * The outbox: writes one delivery per event and subscribed endpoint, each holding its event (message id, type, body),
 * in one statement in the caller's transaction, so a change and what it tells the endpoints commit or roll back
 * together. Nothing is sent here: once the
 * transaction commits, the runner of this process (if it has one) is told, and every runner also sweeps the table.
 */
export async function writeWebhookEvents(trx: Knex.Transaction, ctx: AppContext, events: readonly OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  const endpoints = await subscribed(ctx, trx);
  if (endpoints.length === 0) return;
  const now = ctx.clock.now();
  const wanted: Array<{ event: NewEvent; endpointIds: number[] }> = [];
  for (const event of events) {
    const endpointIds = endpoints.filter((endpoint) => webhookWants(endpoint.events, event.type)).map((endpoint) => endpoint.id);
    if (endpointIds.length === 0) continue;
    wanted.push({
      event: { messageId: newMessageId(), type: event.type, subjectKey: event.subjectKey, body: eventBody(event.type, now, event.data) },
      endpointIds,
    });
  }
  if (wanted.length === 0) return;
  const deliveries = wanted.flatMap(({ event, endpointIds }) => endpointIds.map((endpointId) => ({ endpointId, event })));
  const notify = afterCommit.get(ctx.db);
  const claimedUntil = notify?.sendsHere && deliveries.length === 1 ? leaseFrom(ctx, now) : null;
  const deliveryIds = await insertDeliveries(trx, deliveries, now, claimedUntil);
  // Resolves once the outermost transaction commits; a rollback (or a retried attempt) rejects it: nothing to send.
  if (notify)
    trx.executionPromise.then(
      () =>
        notify.listener(
          deliveryIds &&
            deliveryJobs(
              deliveryIds,
              wanted[0]!.event,
              endpoints.find((e) => e.id === wanted[0]!.endpointIds[0])!,
              claimedUntil,
            ),
        ),
      () => undefined,
    );
}

/**
 * The one delivery an edit wrote, as the runner sends it, so sending it needs no read of what was just written:
 * `sending` under `claimedUntil` when it was written claimed, else `pending`.
 */
function deliveryJobs(ids: number[], event: NewEvent, endpoint: Subscription, claimedUntil: Date | null): DeliveryJob[] {
  return ids.map((id) => ({
    id,
    endpointId: endpoint.id,
    subjectKey: event.subjectKey,
    state: claimedUntil ? 'sending' : 'pending',
    attempts: 0,
    leaseUntil: claimedUntil?.toISOString() ?? null,
    url: endpoint.url,
    secret: endpoint.secret,
    enabled: true,
    failing: endpoint.failing,
    messageId: event.messageId,
    body: event.body,
  }));
}

const RECORD_SUBJECTS = new Set<string>(RECORD_TYPES);
const PAST = { create: 'created', update: 'updated', delete: 'deleted' } as const;

/**
 * The webhook event of a history entry (the one place every change of a record, contact or payment passes
 * through), or null for what webhooks do not tell (files, users). A create that restored a deleted record is
 * `record.restored`.
 */
export function eventOfChange(change: {
  entityType: string;
  entityId: number;
  action: 'create' | 'update' | 'delete';
  changes: object;
  record?: object;
}): OutboxEvent | null {
  const group = RECORD_SUBJECTS.has(change.entityType) ? 'record' : change.entityType;
  if (group !== 'record' && group !== 'contact' && group !== 'payment') return null;
  const changes = change.changes as Record<string, unknown>;
  const restored = change.action === 'create' && 'restoredFrom' in changes;
  const type = `${group}.${restored ? 'restored' : PAST[change.action]}`;
  let record: unknown;
  if (change.record) record = change.record;
  else if (change.action === 'create' && !restored) record = { id: change.entityId, ...changes };
  else if (change.action === 'delete') record = (group === 'record' ? changes.record : changes) ?? null;
  else record = null;
  const data: Record<string, unknown> = { type: change.entityType, id: change.entityId, record };
  if (change.action === 'update') data.changes = changes;
  return { type, subjectKey: `${change.entityType}:${change.entityId}`, data };
}
