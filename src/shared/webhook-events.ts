/** The webhook events, without zod: the settings page imports this (its first-load budget), the schemas too. */

/** What a webhook endpoint can be told (docs/webhooks.md). */
const WEBHOOK_EVENT_TYPES = [
  'record.created',
  'record.updated',
  'record.deleted',
  'record.restored',
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'payment.created',
  'payment.updated',
  'payment.deleted',
  'import.finished',
  'sync.finished',
  'job.failed',
] as const;

/** What an endpoint may subscribe to: an event type, every event of a group (`contact.*`), or everything (`*`). */
export const WEBHOOK_SUBSCRIPTIONS = [...WEBHOOK_EVENT_TYPES, 'record.*', 'contact.*', 'payment.*', '*'] as const;

/** The event the settings page's "Send test event" sends, whatever the endpoint subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** Whether an endpoint subscribed to `events` is told of `type`. */
export function webhookWants(events: readonly string[], type: string): boolean {
  const group = `${type.slice(0, type.indexOf('.'))}.*`;
  return events.some((event) => event === '*' || event === type || event === group);
}
