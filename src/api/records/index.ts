import { Router } from 'express';
import type { ReadRoute } from '../reads.js';

/** GET endpoints of this area, served by /api and called in-process by server-side loaders. */
export const recordsReads: ReadRoute[] = [];

/** Write endpoints of this area (mounted behind the signed-in check and the JSON parser). */
export function recordsRouter(): Router {
  return Router();
}
