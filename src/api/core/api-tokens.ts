import { Router } from 'express';
import { createApiToken, listApiTokens, revokeApiToken } from '@services/api-tokens/service.js';
import { actorOf } from '../actor.js';
import { defineRead, type ReadRoute } from '../reads.js';

/** /settings/api-tokens (admins; the service checks the role, and the router refuses requests made with a token). */
export const apiTokensReads: ReadRoute[] = [defineRead('/api/api-tokens', ({ ctx, actor }) => listApiTokens(ctx, actor))];

export function apiTokensRouter(): Router {
  const router = Router();
  router.post('/api-tokens', async (req, res) => {
    res.status(201).json(await createApiToken(req.ctx, actorOf(req), req.body));
  });
  router.delete('/api-tokens/:id', async (req, res) => {
    await revokeApiToken(req.ctx, actorOf(req), req.params.id);
    res.status(204).end();
  });
  return router;
}
