import { Router } from 'express';
import { bulkTagContacts } from '@services/contacts/bulk.js';
import { actorOf } from '../actor.js';

/** Write endpoints over many contacts at once (the contacts directory's bulk actions). */
export function contactsBulkRouter(): Router {
  const router = Router();
  router.post('/contacts/bulk-tags', async (req, res) => {
    res.json(await bulkTagContacts(req.ctx, actorOf(req), req.body));
  });
  return router;
}
