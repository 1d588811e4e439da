import { Router } from 'express';
import {
  createWebhook,
  deleteWebhook,
  enableWebhook,
  getWebhook,
  listWebhooks,
  parseWebhookId,
  replayDelivery,
  sendTestEvent,
} from '@services/webhooks/service.js';
import { actorOf } from '../actor.js';
import { defineRead, type ReadRoute } from '../reads.js';

/** /settings/webhooks (admins; the services check the role): the endpoints, and one with its delivery log. */
export const webhooksReads: ReadRoute[] = [
  defineRead('/api/webhooks', ({ ctx, actor }) => listWebhooks(ctx, actor)),
  defineRead('/api/webhooks/:id', ({ ctx, actor, params, query }) => getWebhook(ctx, actor, parseWebhookId(params.id), query.get('limit'))),
];

/**
 * POST /api/webhooks `{url, events}` answers `{id, url, events, secret}` (the secret only here); DELETE removes an
 * endpoint; POST …/enable, …/test and …/deliveries/{id}/replay act on one.
 */
export function webhooksRouter(): Router {
  const router = Router();
  router.post('/webhooks', async (req, res) => {
    res.status(201).json(await createWebhook(req.ctx, actorOf(req), req.body));
  });
  router.delete('/webhooks/:id', async (req, res) => {
    await deleteWebhook(req.ctx, actorOf(req), parseWebhookId(req.params.id));
    res.status(204).end();
  });
  router.post('/webhooks/:id/enable', async (req, res) => {
    res.json(await enableWebhook(req.ctx, actorOf(req), parseWebhookId(req.params.id)));
  });
  router.post('/webhooks/:id/test', async (req, res) => {
    res.status(202).json(await sendTestEvent(req.ctx, actorOf(req), parseWebhookId(req.params.id)));
  });
  router.post('/webhooks/:id/deliveries/:deliveryId/replay', async (req, res) => {
    const delivery = parseWebhookId(req.params.deliveryId, 'A delivery id');
    res.status(202).json(await replayDelivery(req.ctx, actorOf(req), parseWebhookId(req.params.id), delivery));
  });
  return router;
}
