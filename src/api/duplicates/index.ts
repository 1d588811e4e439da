import { Router } from 'express';
import { mergeRecords, previewMerge } from '@services/duplicates/merge.js';
import { checkNewRecord, dismissDuplicate, listDuplicates } from '@services/duplicates/service.js';
import { actorOf } from '../actor.js';
import { defineRead, type ReadRoute } from '../reads.js';

/** Possible duplicates and their merge (issue 34; docs/decisions/0108-duplicates-and-merge.md). */
export const duplicatesReads: ReadRoute[] = [
  defineRead('/api/duplicates', ({ ctx, query }) => listDuplicates(ctx, Object.fromEntries(query))),
  defineRead('/api/duplicates/check', ({ ctx, query }) => checkNewRecord(ctx, Object.fromEntries(query))),
  defineRead('/api/merge', ({ ctx, query }) => previewMerge(ctx, Object.fromEntries(query))),
];

export function duplicatesRouter(): Router {
  const router = Router();
  router.post('/duplicates/dismiss', async (req, res) => {
    res.json(await dismissDuplicate(req.ctx, actorOf(req), req.body));
  });
  router.post('/merge', async (req, res) => {
    res.json(await mergeRecords(req.ctx, actorOf(req), req.body));
  });
  return router;
}
