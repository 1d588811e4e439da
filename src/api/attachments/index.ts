import { Router } from 'express';
import type { ReadRoute } from '../reads.js';
import { contactsReads, contactsRouter } from './contacts.js';
import { filesReads, filesRouter } from './files.js';
import { paymentsReads, paymentsRouter } from './payments.js';

/** GET endpoints of this area, served by /api (server-side loaders call the same services through src/ssr/data-source.ts). */
export const attachmentsReads: ReadRoute[] = [...contactsReads, ...paymentsReads, ...filesReads];

/** Write endpoints of this area (mounted behind the signed-in check; JSON bodies, and multipart for uploads). */
export function attachmentsRouter(): Router {
  const router = Router();
  router.use(contactsRouter());
  router.use(paymentsRouter());
  router.use(filesRouter());
  return router;
}
