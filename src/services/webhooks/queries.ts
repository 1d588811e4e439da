import type { Knex } from 'knex';
import { decodeTimestamp, encodeTimestamp } from '@db/codecs.js';
import { dialectOfDb } from '@db/knex.js';
import { withTransaction } from '@db/transaction.js';
import type { WebhookDelivery, WebhookDeliveryState, WebhookEndpoint } from '@shared/schemas/webhooks.js';

type Db = Knex | Knex.Transaction;

/** An endpoint as stored, with its secret (never answered after creation). */
export interface EndpointRow extends WebhookEndpoint {
  secret: string;
}

function decodeEndpoint(row: Record<string, unknown>): EndpointRow {
  return {
    id: Number(row.id),
    url: String(row.url),
    events: JSON.parse(String(row.events)) as string[],
    secret: String(row.secret),
    enabled: Boolean(Number(row.enabled)),
    disabledReason: (row.disabledReason as string | null) ?? null,
    failingSince: decodeTimestamp(row.failingSince),
    createdBy: (row.createdByEmail as string | null | undefined) ?? null,
    createdAt: decodeTimestamp(row.createdAt)!,
  };
}

const endpointColumns = ['webhook_endpoints.*', 'users.email as createdByEmail'];

export async function insertEndpoint(
  db: Db,
  endpoint: { url: string; events: string[]; secret: string; createdBy: number | null; now: Date },
): Promise<number> {
  const at = encodeTimestamp(endpoint.now);
  const [id] = await db('webhook_endpoints').insert({
    url: endpoint.url,
    events: JSON.stringify(endpoint.events),
    secret: endpoint.secret,
    enabled: true,
    createdBy: endpoint.createdBy,
    createdAt: at,
    updatedAt: at,
  });
  return Number(id);
}

export async function findEndpoint(db: Db, id: number): Promise<EndpointRow | null> {
  const row = (await db('webhook_endpoints')
    .leftJoin('users', 'users.id', 'webhook_endpoints.createdBy')
    .where('webhook_endpoints.id', id)
    .first(endpointColumns)) as Record<string, unknown> | undefined;
  return row ? decodeEndpoint(row) : null;
}

export async function listEndpointRows(db: Db): Promise<EndpointRow[]> {
  const rows = (await db('webhook_endpoints')
    .leftJoin('users', 'users.id', 'webhook_endpoints.createdBy')
    .orderBy('webhook_endpoints.id')
    .select(endpointColumns)) as Array<Record<string, unknown>>;
  return rows.map(decodeEndpoint);
}

/** An enabled endpoint as a change needs it: what it wants, and what sending to it needs. */
export interface Subscription {
  id: number;
  events: string[];
  url: string;
  secret: string;
  failing: boolean;
}

/** The enabled endpoints: all a change needs to know whether to write an event, and the runner to send it. */
export async function enabledSubscriptions(db: Db): Promise<Subscription[]> {
  const rows = (await db('webhook_endpoints').where({ enabled: true }).select('id', 'events', 'url', 'secret', 'failingSince')) as Array<
    Record<string, unknown>
  >;
  return rows.map((row) => ({
    id: Number(row.id),
    events: JSON.parse(String(row.events)) as string[],
    url: String(row.url),
    secret: String(row.secret),
    failing: row.failingSince !== null && row.failingSince !== undefined,
  }));
}

export async function updateEndpoint(
  db: Db,
  id: number,
  values: { enabled?: boolean; disabledReason?: string | null; failingSince?: Date | null; now: Date },
): Promise<number> {
  const { now, failingSince, ...rest } = values;
  return Number(
    await db('webhook_endpoints')
      .where({ id })
      .update({
        ...rest,
        ...(failingSince !== undefined ? { failingSince: encodeTimestamp(failingSince) } : {}),
        updatedAt: encodeTimestamp(now),
      }),
  );
}

/** Marks the endpoint failing from `now` unless it already was; answers since when it fails. */
export async function markFailing(db: Db, id: number, now: Date): Promise<string | null> {
  await db('webhook_endpoints')
    .where({ id })
    .whereNull('failingSince')
    .update({ failingSince: encodeTimestamp(now) });
  const row = (await db('webhook_endpoints').where({ id }).first('failingSince')) as { failingSince: unknown } | undefined;
  return decodeTimestamp(row?.failingSince);
}

export async function deleteEndpointRow(db: Db, id: number): Promise<number> {
  await db('webhook_deliveries').where({ endpointId: id }).delete();
  return Number(await db('webhook_endpoints').where({ id }).delete());
}

/** An event to send: the Standard Webhooks message id, its type, what it is about (for ordering) and the exact body. */
export interface NewEvent {
  messageId: string;
  type: string;
  subjectKey: string | null;
  body: string;
}

/**
 * Inserts deliveries, each holding its event, in one statement; answers their ids when one was written (the usual
 * edit), else null (a batch: sweep for them; ids of a multi-row insert are not reliably known on MySQL). With
 * `claimedUntil` (one delivery only) it is written claimed for its first attempt, under that lease.
 */
export async function insertDeliveries(
  db: Db,
  deliveries: ReadonlyArray<{ endpointId: number; event: NewEvent }>,
  now: Date,
  claimedUntil: Date | null = null,
): Promise<number[] | null> {
  const at = encodeTimestamp(now);
  const row = ({ endpointId, event }: (typeof deliveries)[number]) => ({
    endpointId,
    messageId: event.messageId,
    eventType: event.type,
    subjectKey: event.subjectKey,
    body: event.body,
    state: 'pending',
    attempts: 0,
    createdAt: at,
    updatedAt: at,
  });
  if (deliveries.length === 1) {
    const claimed = claimedUntil ? { state: 'sending', attempts: 1, leaseUntil: encodeTimestamp(claimedUntil) } : {};
    const [id] = await db('webhook_deliveries').insert({ ...row(deliveries[0]!), ...claimed });
    return [Number(id)];
  }
  for (let start = 0; start < deliveries.length; start += 500)
    await db('webhook_deliveries').insert(deliveries.slice(start, start + 500).map(row));
  return null;
}

/** A delivery with what sending it needs: its endpoint and its event's body. */
export interface DeliveryJob {
  id: number;
  endpointId: number;
  subjectKey: string | null;
  state: WebhookDeliveryState;
  attempts: number;
  leaseUntil: string | null;
  url: string;
  secret: string;
  enabled: boolean;
  failing: boolean;
  messageId: string;
  body: string;
}

/** The deliveries with these ids, with what sending them needs (one query for a whole batch). */
export async function findDeliveryJobs(db: Db, ids: readonly number[]): Promise<DeliveryJob[]> {
  if (ids.length === 0) return [];
  const rows = (await db('webhook_deliveries as d')
    .join('webhook_endpoints as e', 'e.id', 'd.endpointId')
    .whereIn('d.id', ids)
    .select(
      'd.id',
      'd.endpointId',
      'd.subjectKey',
      'd.state',
      'd.attempts',
      'd.leaseUntil',
      'e.url',
      'e.secret',
      'e.enabled',
      'e.failingSince',
      'd.messageId',
      'd.body',
    )) as Array<Record<string, unknown>>;
  return rows.map((row) => ({
    id: Number(row.id),
    endpointId: Number(row.endpointId),
    subjectKey: (row.subjectKey as string | null) ?? null,
    state: row.state as WebhookDeliveryState,
    attempts: Number(row.attempts),
    leaseUntil: decodeTimestamp(row.leaseUntil),
    url: String(row.url),
    secret: String(row.secret),
    enabled: Boolean(Number(row.enabled)),
    failing: row.failingSince !== null && row.failingSince !== undefined,
    messageId: String(row.messageId),
    body: String(row.body),
  }));
}

type SubjectOf = { id: number; endpointId: number; subjectKey: string | null };

/**
 * Of these deliveries (at most one per endpoint and subject), the ids of those behind an earlier delivery of the
 * same subject to the same endpoint that has not finished: that one goes first. One query for the batch: the
 * oldest unfinished delivery of each subject, which is the delivery itself when nothing waits before it.
 */
export async function earlierUnfinished(db: Db, jobs: readonly SubjectOf[]): Promise<Set<number>> {
  const ordered = jobs.filter((job) => job.subjectKey !== null);
  if (ordered.length === 0) return new Set();
  const rows = (await db('webhook_deliveries')
    .whereIn('endpointId', [...new Set(ordered.map((job) => job.endpointId))])
    .whereIn('subjectKey', [...new Set(ordered.map((job) => job.subjectKey!))])
    .whereIn('state', ['pending', 'sending'])
    .groupBy('endpointId', 'subjectKey')
    .select('endpointId', 'subjectKey', db.raw('min(??) as ??', ['id', 'firstId']))) as Array<{
    endpointId: unknown;
    subjectKey: string;
    firstId: unknown;
  }>;
  const first = new Map(rows.map((row) => [`${Number(row.endpointId)}|${row.subjectKey}`, Number(row.firstId)]));
  return new Set(ordered.filter((job) => (first.get(`${job.endpointId}|${job.subjectKey}`) ?? job.id) < job.id).map((job) => job.id));
}

/** The next waiting delivery of the same subject to the same endpoint, once one finished. */
export async function nextOfSubject(db: Db, job: SubjectOf): Promise<{ id: number; attempts: number } | null> {
  if (job.subjectKey === null) return null;
  const row = (await db('webhook_deliveries')
    .where({ endpointId: job.endpointId, subjectKey: job.subjectKey, state: 'pending' })
    .andWhere('id', '>', job.id)
    .orderBy('id')
    .first('id', 'attempts')) as { id: unknown; attempts: unknown } | undefined;
  return row ? { id: Number(row.id), attempts: Number(row.attempts) } : null;
}

/** Waiting, or sending under a lease that ran out (its sender went silent): free to be taken. */
const claimable = (query: Knex.QueryBuilder, at: string) =>
  query.andWhere((q) => q.where('state', 'pending').orWhere((stale) => stale.where('state', 'sending').andWhere('leaseUntil', '<', at)));

/**
 * Takes these deliveries for one attempt each, in one statement; answers the ids this runner got (another runner
 * may have taken some). SQLite answers them from the UPDATE itself; MariaDB has no UPDATE … RETURNING, so there the
 * free rows are locked and read first, in one short transaction.
 */
export async function claimDeliveries(db: Knex, ids: readonly number[], now: Date, leaseUntil: Date): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const at = encodeTimestamp(now)!;
  const taken = (trx: Db) => ({
    state: 'sending',
    attempts: trx.raw('?? + 1', ['attempts']),
    leaseUntil: encodeTimestamp(leaseUntil),
    nextAttemptAt: null,
    updatedAt: at,
  });
  if (dialectOfDb(db) !== 'mysql') {
    const rows = (await claimable(db('webhook_deliveries').whereIn('id', ids), at).update(taken(db), ['id'])) as Array<{ id: unknown }>;
    return new Set(rows.map((row) => Number(row.id)));
  }
  return withTransaction({ db }, async (trx) => {
    const free = (
      (await claimable(trx('webhook_deliveries').whereIn('id', ids), at).forUpdate().select('id')) as Array<{ id: unknown }>
    ).map((row) => Number(row.id));
    if (free.length > 0) await trx('webhook_deliveries').whereIn('id', free).update(taken(trx));
    return new Set(free);
  });
}

/** Gives back deliveries claimed for an attempt not made (written claimed, then found waiting behind another). */
export async function releaseDeliveries(db: Db, ids: readonly number[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db('webhook_deliveries')
    .whereIn('id', ids)
    .andWhere('state', 'sending')
    .update({ state: 'pending', attempts: db.raw('?? - 1', ['attempts']), leaseUntil: null, updatedAt: encodeTimestamp(now) });
}

/** What one attempt came to, as the delivery log keeps it. */
export interface AttemptAnswer {
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number | null;
}

/** Settles the deliveries that were answered 2xx, in one statement (a CASE per id for what differs). */
export async function settleDelivered(db: Db, delivered: ReadonlyArray<{ id: number } & AttemptAnswer>, now: Date): Promise<void> {
  if (delivered.length === 0) return;
  const at = encodeTimestamp(now);
  const perId = (column: keyof AttemptAnswer) =>
    db.raw(['case ??', ...delivered.map(() => 'when ? then ?'), 'end'].join(' '), [
      'id',
      ...delivered.flatMap((item) => [item.id, item[column]]),
    ]);
  await db('webhook_deliveries')
    .whereIn(
      'id',
      delivered.map((item) => item.id),
    )
    .andWhere('state', 'sending')
    .update({
      state: 'delivered',
      responseStatus: perId('responseStatus'),
      responseBody: perId('responseBody'),
      error: null,
      durationMs: perId('durationMs'),
      leaseUntil: null,
      nextAttemptAt: null,
      deliveredAt: at,
      updatedAt: at,
    });
}

/** Settles one attempt that failed: waiting for its retry (pending) or failed for good. */
export async function settleDelivery(
  db: Db,
  id: number,
  outcome: AttemptAnswer & { state: WebhookDeliveryState; now: Date; nextAttemptAt?: Date },
): Promise<void> {
  const at = encodeTimestamp(outcome.now);
  await db('webhook_deliveries')
    .where({ id, state: 'sending' })
    .update({
      state: outcome.state,
      responseStatus: outcome.responseStatus,
      responseBody: outcome.responseBody,
      error: outcome.error,
      durationMs: outcome.durationMs,
      leaseUntil: null,
      nextAttemptAt: encodeTimestamp(outcome.nextAttemptAt ?? null),
      deliveredAt: outcome.state === 'delivered' ? at : null,
      updatedAt: at,
    });
}

/** Deliveries a runner should (re)start: waiting and due at enabled endpoints, or sending under a lease that ran out. */
export async function findDueDeliveries(db: Db, now: Date, limit = 200): Promise<Array<{ id: number; attempts: number }>> {
  const at = encodeTimestamp(now);
  const rows = (await db('webhook_deliveries as d')
    .join('webhook_endpoints as e', 'e.id', 'd.endpointId')
    .where('e.enabled', true)
    .andWhere((q) => {
      q.where((waiting) =>
        waiting.where('d.state', 'pending').andWhere((due) => due.whereNull('d.nextAttemptAt').orWhere('d.nextAttemptAt', '<=', at)),
      );
      q.orWhere((stale) => stale.where('d.state', 'sending').andWhere('d.leaseUntil', '<', at));
    })
    .orderBy('d.id')
    .limit(limit)
    .select('d.id', 'd.attempts')) as Array<{ id: unknown; attempts: unknown }>;
  return rows.map((row) => ({ id: Number(row.id), attempts: Number(row.attempts) }));
}

export async function pendingOfEndpoint(db: Db, endpointId: number): Promise<Array<{ id: number; attempts: number }>> {
  const rows = (await db('webhook_deliveries').where({ endpointId, state: 'pending' }).orderBy('id').select('id', 'attempts')) as Array<{
    id: unknown;
    attempts: unknown;
  }>;
  return rows.map((row) => ({ id: Number(row.id), attempts: Number(row.attempts) }));
}

export async function listDeliveryRows(db: Db, endpointId: number, limit: number): Promise<WebhookDelivery[]> {
  const rows = (await db('webhook_deliveries')
    .where('endpointId', endpointId)
    .orderBy('id', 'desc')
    .limit(limit)
    .select(
      'id',
      'messageId',
      'eventType',
      'state',
      'attempts',
      'responseStatus',
      'responseBody',
      'error',
      'durationMs',
      'nextAttemptAt',
      'createdAt',
      'deliveredAt',
    )) as Array<Record<string, unknown>>;
  return rows.map((row) => ({
    id: Number(row.id),
    messageId: String(row.messageId),
    eventType: String(row.eventType),
    state: row.state as WebhookDeliveryState,
    attempts: Number(row.attempts),
    responseStatus: row.responseStatus === null ? null : Number(row.responseStatus),
    responseBody: (row.responseBody as string | null) ?? null,
    error: (row.error as string | null) ?? null,
    durationMs: row.durationMs === null ? null : Number(row.durationMs),
    nextAttemptAt: decodeTimestamp(row.nextAttemptAt),
    createdAt: decodeTimestamp(row.createdAt)!,
    deliveredAt: decodeTimestamp(row.deliveredAt),
  }));
}

/** A delivery's endpoint and event, for a replay to send that event again. */
export async function findDeliveryRow(db: Db, id: number): Promise<{ endpointId: number; event: NewEvent } | null> {
  const row = (await db('webhook_deliveries').where({ id }).first('endpointId', 'messageId', 'eventType', 'subjectKey', 'body')) as
    { endpointId: unknown; messageId: string; eventType: string; subjectKey: string | null; body: string } | undefined;
  if (!row) return null;
  return {
    endpointId: Number(row.endpointId),
    event: { messageId: row.messageId, type: row.eventType, subjectKey: row.subjectKey ?? null, body: row.body },
  };
}

/** One more delivery of an event (a replay, a test event): answers its id. */
export async function insertDelivery(db: Db, delivery: { endpointId: number; event: NewEvent }, now: Date): Promise<number> {
  return (await insertDeliveries(db, [delivery], now))![0]!;
}
