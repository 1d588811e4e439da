import { Router } from 'express';
import type { Actor, AppContext } from '@services/context.js';
import { parseId } from '@services/attachments/owners.js';
import { actorOf } from '../actor.js';

interface WriteService {
  create(ctx: AppContext, actor: Actor, body: unknown): Promise<unknown>;
  update(ctx: AppContext, actor: Actor, id: number, body: unknown): Promise<unknown>;
  remove(ctx: AppContext, actor: Actor, id: number): Promise<void>;
}

/** POST /<plural>, PUT and DELETE /<plural>/:id for an owned item (contacts, payments); `what` names it in a 404. */
export function writesRouter(plural: string, what: string, service: WriteService): Router {
  const router = Router();
  router.post(`/${plural}`, async (req, res) => {
    res.status(201).json(await service.create(req.ctx, actorOf(req), req.body));
  });
  router.put(`/${plural}/:id`, async (req, res) => {
    res.json(await service.update(req.ctx, actorOf(req), parseId(req.params.id, what), req.body));
  });
  router.delete(`/${plural}/:id`, async (req, res) => {
    await service.remove(req.ctx, actorOf(req), parseId(req.params.id, what));
    res.status(204).end();
  });
  return router;
}
