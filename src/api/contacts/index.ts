import { Router } from 'express';
import { bulkAddToAudience, bulkDeleteContacts, bulkTagContacts } from '@services/contacts/bulk.js';
import { listDirectory } from '@services/contacts/directory.js';
import { defineRead, type ReadRoute } from '../reads.js';
import { actorOf } from '../actor.js';

/** GET /api/contacts?q=&ownerType=&tag=&primary=&sort=&dir=&limit=&offset=: the contacts directory. */
export const contactsDirectoryReads: ReadRoute[] = [
  defineRead('/api/contacts', ({ ctx, query }) => listDirectory(ctx, Object.fromEntries(query))),
];

/** Write endpoints over many contacts at once (the contacts directory's bulk actions). */
export function contactsBulkRouter(): Router {
  const router = Router();
  router.post('/contacts/bulk-tags', async (req, res) => {
    res.json(await bulkTagContacts(req.ctx, actorOf(req), req.body));
  });
  router.post('/contacts/bulk-delete', async (req, res) => {
    res.json(await bulkDeleteContacts(req.ctx, actorOf(req), req.body));
  });
  router.post('/contacts/bulk-mailchimp', async (req, res) => {
    res.json(await bulkAddToAudience(req.ctx, actorOf(req), req.body));
  });
  return router;
}
