import { Router } from 'express';
import { parseId } from '@services/attachments/owners.js';
import { listDeleted, restoreDeleted, undoDeletes } from '@services/trash/service.js';
import { actorOf } from '../actor.js';
import { defineRead, type ReadRoute } from '../reads.js';

/** Recently deleted (admins; the services check the role). */
export const trashReads: ReadRoute[] = [defineRead('/api/deleted', ({ ctx, actor }) => listDeleted(ctx, actor))];

export function trashRouter(): Router {
  const router = Router();
  router.post('/deleted/:id/restore', async (req, res) => {
    res.json(await restoreDeleted(req.ctx, actorOf(req), parseId(req.params.id, 'Deleted item')));
  });
  router.post('/deleted/undo', async (req, res) => {
    res.json(await undoDeletes(req.ctx, actorOf(req), req.body));
  });
  return router;
}
