import * as z from 'zod';
import { WEBHOOK_SUBSCRIPTIONS } from '../webhook-events.js';
import { text } from './text.js';

const eventsList = z
  .union([z.array(z.string()), z.string().transform((value) => value.split(','))])
  .transform((list) => [...new Set(list.map((event) => event.trim()).filter(Boolean))])
  .pipe(
    z
      .array(z.enum(WEBHOOK_SUBSCRIPTIONS, { error: `Events must be among: ${WEBHOOK_SUBSCRIPTIONS.join(', ')}` }))
      .min(1, 'Choose at least one event')
      .max(WEBHOOK_SUBSCRIPTIONS.length),
  );

export const WebhookInputSchema = z
  .object({
    url: text()
      .trim()
      .max(2000, 'URL must be at most 2000 characters')
      .pipe(z.url({ protocol: /^https?$/, message: 'URL must be an http:// or https:// address' })),
    events: eventsList,
  })
  .strict();

export type WebhookDeliveryState = 'pending' | 'sending' | 'delivered' | 'failed';

export interface WebhookEndpoint {
  id: number;
  url: string;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  createdBy: string | null;
  createdAt: string;
}

/** The answer to creating an endpoint: the only time its secret is shown. */
export interface NewWebhookEndpoint {
  id: number;
  url: string;
  events: string[];
  secret: string;
}

export interface WebhookDelivery {
  id: number;
  messageId: string;
  eventType: string;
  state: WebhookDeliveryState;
  attempts: number;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number | null;
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

export interface WebhookEndpointDetail {
  endpoint: WebhookEndpoint;
  deliveries: WebhookDelivery[];
}

/** /settings/webhooks: the endpoints, and the one whose delivery log is open. */
export interface WebhooksPage {
  items: WebhookEndpoint[];
  selected: WebhookEndpointDetail | null;
}
