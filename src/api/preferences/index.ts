import { Router } from 'express';
import { getPreferences, setPreference } from '@services/preferences/service.js';
import { defineRead, personOf, type ReadRoute } from '../reads.js';

/** GET /api/preferences: every remembered setting of the signed-in user (defaults where none was chosen). */
export const preferencesReads: ReadRoute[] = [
  defineRead('/api/preferences', (request) => getPreferences(request.ctx, personOf(request).user.id)),
];

/** PUT /api/preferences/{name} with {value}: remembers one setting. */
export function preferencesRouter(): Router {
  const router = Router();
  router.put('/preferences/:name', async (req, res) => {
    res.json(await setPreference(req.ctx, req.user!.id, req.params.name, req.body));
  });
  return router;
}
