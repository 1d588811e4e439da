import { randomBytes } from 'node:crypto';
import { withTransaction } from '@db/transaction.js';
import { WEBHOOK_TEST_EVENT } from '@shared/webhook-events.js';
import {
  WebhookInputSchema,
  type NewWebhookEndpoint,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointDetail,
} from '@shared/schemas/webhooks.js';
import type { Actor, AppContext } from '../context.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { requireRole } from '../roles.js';
import { parseInput } from '../validate.js';
import { eventBody, forgetSubscriptions, newMessageId } from './outbox.js';
import {
  deleteEndpointRow,
  findDeliveryRow,
  findEndpoint,
  insertDelivery,
  insertEndpoint,
  listDeliveryRows,
  listEndpointRows,
  pendingOfEndpoint,
  updateEndpoint,
  type EndpointRow,
} from './queries.js';
import { dispatchDeliveries } from './runner.js';
import { checkUrlAddresses, RefusedAddressError } from './send.js';

/** The endpoint as answered: everything but its secret, shown only once when it is made. */
function presentEndpoint(row: EndpointRow): WebhookEndpoint {
  const { secret: _secret, ...endpoint } = row;
  return endpoint;
}

/** `whsec_` + base64 of 24 random bytes (192 bits), as Standard Webhooks secrets are written. */
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

export function parseWebhookId(value: string | number | undefined, what = 'A webhook id'): number {
  const id = Number(value);
  if (!Number.isInteger(id) || id < 1) throw badRequest(`${what} is a whole number above 0`);
  return id;
}

/** Refuses a URL whose host does not resolve, or resolves to a private or loopback address (unless allowed). */
async function assertReachable(ctx: AppContext, url: string): Promise<void> {
  try {
    await checkUrlAddresses(new URL(url), ctx.config.webhooks.allowPrivate);
  } catch (error) {
    if (error instanceof RefusedAddressError) throw badRequest(`Webhook URL refused: ${error.message}`);
    throw badRequest(`Webhook URL refused: its host could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Adds an endpoint (admins only); the answer carries its secret, which is never shown again. */
export async function createWebhook(ctx: AppContext, actor: Actor, body: unknown): Promise<NewWebhookEndpoint> {
  requireRole(actor, 'admin');
  const input = parseInput(WebhookInputSchema, body);
  await assertReachable(ctx, input.url);
  const secret = newSecret();
  const id = await insertEndpoint(ctx.db, { url: input.url, events: input.events, secret, createdBy: actor.userId, now: ctx.clock.now() });
  forgetSubscriptions(ctx.db);
  ctx.log.info({ event: 'webhook_created', webhookId: id, by: actor.userId }, 'webhook endpoint added');
  return { id, url: input.url, events: input.events, secret };
}

export async function listWebhooks(ctx: AppContext, actor: Actor): Promise<{ items: WebhookEndpoint[] }> {
  requireRole(actor, 'admin');
  return { items: (await listEndpointRows(ctx.db)).map(presentEndpoint) };
}

async function endpointOf(ctx: AppContext, id: number): Promise<EndpointRow> {
  const row = await findEndpoint(ctx.db, id);
  if (!row) throw notFound('Webhook not found');
  return row;
}

/** One endpoint with its latest deliveries (the delivery log), newest first. */
export async function getWebhook(ctx: AppContext, actor: Actor, id: number, limitText?: string | null): Promise<WebhookEndpointDetail> {
  requireRole(actor, 'admin');
  const limit = limitText ? Number(limitText) : 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw badRequest('limit must be a whole number from 1 to 500');
  const endpoint = presentEndpoint(await endpointOf(ctx, id));
  return { endpoint, deliveries: await listDeliveryRows(ctx.db, id, limit) };
}

export async function deleteWebhook(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  requireRole(actor, 'admin');
  const deleted = await withTransaction(ctx, (trx) => deleteEndpointRow(trx, id));
  if (!deleted) throw notFound('Webhook not found');
  forgetSubscriptions(ctx.db);
  ctx.log.info({ event: 'webhook_deleted', webhookId: id, by: actor.userId }, 'webhook endpoint deleted');
}

/** Enables an endpoint again (after it was disabled for failing): its waiting deliveries go out in their order. */
export async function enableWebhook(ctx: AppContext, actor: Actor, id: number): Promise<WebhookEndpoint> {
  requireRole(actor, 'admin');
  const endpoint = await endpointOf(ctx, id);
  await assertReachable(ctx, endpoint.url);
  await updateEndpoint(ctx.db, id, { enabled: true, disabledReason: null, failingSince: null, now: ctx.clock.now() });
  forgetSubscriptions(ctx.db);
  await dispatchDeliveries(ctx, await pendingOfEndpoint(ctx.db, id));
  ctx.log.info({ event: 'webhook_enabled', webhookId: id, by: actor.userId }, 'webhook endpoint enabled');
  return presentEndpoint((await findEndpoint(ctx.db, id))!);
}

/** Sends one delivery's event again, as a new delivery after whatever waits for the same subject. */
export async function replayDelivery(ctx: AppContext, actor: Actor, endpointId: number, deliveryId: number): Promise<WebhookDelivery> {
  requireRole(actor, 'admin');
  const endpoint = await endpointOf(ctx, endpointId);
  if (!endpoint.enabled) throw conflict('This webhook is disabled; enable it before replaying a delivery');
  const delivery = await findDeliveryRow(ctx.db, deliveryId);
  if (!delivery || delivery.endpointId !== endpointId) throw notFound('Delivery not found');
  const id = await insertDelivery(ctx.db, { endpointId, event: delivery.event }, ctx.clock.now());
  await dispatchDeliveries(ctx, [{ id, attempts: 0 }]);
  return (await listDeliveryRows(ctx.db, endpointId, 500)).find((row) => row.id === id)!;
}

/** Sends a `webhook.test` event to this endpoint only, whatever it subscribes to. */
export async function sendTestEvent(ctx: AppContext, actor: Actor, endpointId: number): Promise<WebhookDelivery> {
  requireRole(actor, 'admin');
  const endpoint = await endpointOf(ctx, endpointId);
  if (!endpoint.enabled) throw conflict('This webhook is disabled; enable it before sending a test event');
  const now = ctx.clock.now();
  const messageId = newMessageId();
  const body = eventBody(WEBHOOK_TEST_EVENT, now, { webhookId: endpointId, message: 'A test event from Pacer CRM' });
  const id = await insertDelivery(ctx.db, { endpointId, event: { messageId, type: WEBHOOK_TEST_EVENT, subjectKey: null, body } }, now);
  await dispatchDeliveries(ctx, [{ id, attempts: 0 }]);
  return (await listDeliveryRows(ctx.db, endpointId, 500)).find((row) => row.id === id)!;
}
