import { Router } from 'express';
import { createRecord, deleteRecord, eventWordpressUrl, getRecord, listRecords, updateRecord } from '@services/records/service.js';
import { actorOf } from '../actor.js';
import { parseId } from '@services/attachments/owners.js';
import { getHistory } from '@services/history/service.js';
import { validationFailed } from '@services/errors.js';
import { readListQuery } from '@shared/list-query.js';
import { defineRead, type ReadRoute } from '../reads.js';
import { RECORD_TYPE_INFO, RECORD_TYPES, type RecordType } from '@shared/record-types.js';

/** A list URL's query, parsed once; a malformed one is a 400 naming the first problem. */
function apiListQuery<K extends RecordType>(kind: K, search: URLSearchParams) {
  const read = readListQuery(kind, search, 'api');
  if (!read.ok) throw validationFailed(read.message, read.issues);
  return read.query;
}

/** GET endpoints of this area, served by /api (server-side loaders call the same services through src/ssr/data-source.ts). */
export const recordsReads: ReadRoute[] = [
  // Listed before /:id so the more specific path is plain to read; matching does not depend on the order.
  defineRead(`${RECORD_TYPE_INFO.event.apiPath}/:id/wordpress-url`, ({ ctx, params }) => eventWordpressUrl(ctx, params.id)),
  ...RECORD_TYPES.flatMap((kind) => [
    defineRead(RECORD_TYPE_INFO[kind].apiPath, ({ ctx, query }) => listRecords(ctx, kind, apiListQuery(kind, query))),
    defineRead(`${RECORD_TYPE_INFO[kind].apiPath}/:id`, ({ ctx, params }) => getRecord(ctx, kind, params.id)),
    defineRead(`${RECORD_TYPE_INFO[kind].apiPath}/:id/history`, ({ ctx, params, query }) =>
      getHistory(ctx, kind, parseId(params.id, RECORD_TYPE_INFO[kind].singular), query.get('page')),
    ),
  ]),
];

const routePath = (kind: RecordType) => RECORD_TYPE_INFO[kind].apiPath.replace(/^\/api/, '');

/** Write endpoints of this area (mounted behind the signed-in check and the JSON parser). */
export function recordsRouter(): Router {
  const router = Router();
  for (const kind of RECORD_TYPES) {
    const path = routePath(kind);
    router.post(path, async (req, res) => {
      res.status(201).json(await createRecord(req.ctx, actorOf(req), kind, req.body));
    });
    router.put(`${path}/:id`, async (req, res) => {
      res.json(await updateRecord(req.ctx, actorOf(req), kind, req.params.id, req.body));
    });
    router.delete(`${path}/:id`, async (req, res) => {
      await deleteRecord(req.ctx, actorOf(req), kind, req.params.id);
      res.status(204).end();
    });
  }
  return router;
}
