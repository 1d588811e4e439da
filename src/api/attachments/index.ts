import { Router } from 'express';
import { parseId } from '@services/attachments/owners.js';
import { getHistory } from '@services/history/service.js';
import { defineRead, type ReadRoute } from '../reads.js';
import { contactsReads, contactsRouter } from './contacts.js';
import { filesReads, filesRouter } from './files.js';
import { paymentsReads, paymentsRouter } from './payments.js';

/** GET endpoints of this area, served by /api (server-side loaders call the same services through src/ssr/data-source.ts). */
export const attachmentsReads: ReadRoute[] = [
  // First: /api/contacts/:id/history has the shape of the owner listing /api/contacts/:entityType/:entityId.
  ...(['contact', 'payment', 'file'] as const).map((what) =>
    defineRead(`/api/${what}s/:id/history`, ({ ctx, params, query }) =>
      getHistory(ctx, what, parseId(params.id, what.charAt(0).toUpperCase() + what.slice(1)), query.get('page')),
    ),
  ),
  ...contactsReads,
  ...paymentsReads,
  ...filesReads,
];

/** Write endpoints of this area (mounted behind the signed-in check; JSON bodies, and multipart for uploads). */
export function attachmentsRouter(): Router {
  const router = Router();
  router.use(contactsRouter());
  router.use(paymentsRouter());
  router.use(filesRouter());
  return router;
}
