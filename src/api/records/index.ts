import { pipeline } from 'node:stream/promises';
import { Router, type Request, type Response } from 'express';
import { exportContactsCsv, exportRecordsCsv } from '@services/records/export.js';
import {
  bulkDeleteRecords,
  createRecord,
  deleteRecord,
  eventWordpressUrl,
  getRecord,
  listRecords,
  updateRecord,
} from '@services/records/service.js';
import { actorOf } from '../actor.js';
import { recordActivityEvents } from '@services/activity/log.js';
import { parseId } from '@services/attachments/owners.js';
import { getHistory } from '@services/history/service.js';
import { validationFailed } from '@services/errors.js';
import { readListQuery } from '@shared/list-query.js';
import { defineRead, type ReadRoute } from '../reads.js';
import { RECORD_TYPE_INFO, RECORD_TYPES, recordTypeOfSegment, type RecordType } from '@shared/record-types.js';
import { queryOf } from '../reads.js';
import { notFound } from '@services/errors.js';
import { parseIdList } from '@shared/schemas/bulk.js';

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

/** `ids=3,5,8`: export only a selection (at most the bulk limit); absent, the whole list. */
function selectedIds(search: URLSearchParams): number[] | undefined {
  const text = search.get('ids');
  if (text === null) return undefined;
  const parsed = parseIdList(text.split(',').filter(Boolean));
  if (!parsed.ok) throw validationFailed(parsed.message, [{ path: 'ids', message: parsed.message }]);
  return parsed.ids;
}

/**
 * Streams a CSV download. The status and headers go out before the first row, so a failure mid-way can only cut
 * the download short (and is logged); every refusal (bad parameters) happens before that.
 */
export async function sendCsv(req: Request, res: Response, name: string, csv: NodeJS.ReadableStream) {
  const date = req.ctx.clock.now().toISOString().slice(0, 10);
  await recordActivityEvents(req.ctx.db, req.ctx, actorOf(req), [{ kind: 'export', summary: `Exported ${name} as CSV` }]);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${name}-${date}.csv"`);
  try {
    await pipeline(csv, res);
  } catch (error) {
    req.log.error({ err: error }, 'CSV export failed part-way');
    res.destroy();
  }
}

/** Write endpoints of this area (mounted behind the signed-in check and the JSON parser). */
export function recordsRouter(): Router {
  const router = Router();
  // GET /api/export/events?q=&filter=&sort=&dir=[&ids=]: the list as CSV, every page (limit and offset are ignored);
  // /api/export/contacts takes the contacts directory's parameters.
  router.get('/export/contacts', async (req, res) => {
    const search = queryOf(req);
    const csv = exportContactsCsv(req.ctx, Object.fromEntries(search), selectedIds(search));
    await sendCsv(req, res, 'contacts', csv);
  });
  router.get('/export/:segment', async (req, res) => {
    const kind = recordTypeOfSegment(req.params.segment);
    if (!kind) throw notFound(`Nothing to export is named ${req.params.segment}`);
    const search = queryOf(req);
    const query = apiListQuery(kind, search);
    const ids = selectedIds(search);
    await sendCsv(req, res, RECORD_TYPE_INFO[kind].segment, exportRecordsCsv(req.ctx, kind, query, ids));
  });
  for (const kind of RECORD_TYPES) {
    const path = routePath(kind);
    router.post(path, async (req, res) => {
      res.status(201).json(await createRecord(req.ctx, actorOf(req), kind, req.body));
    });
    router.put(`${path}/:id`, async (req, res) => {
      res.json(await updateRecord(req.ctx, actorOf(req), kind, req.params.id, req.body));
    });
    router.post(`${path}/bulk-delete`, async (req, res) => {
      res.json(await bulkDeleteRecords(req.ctx, actorOf(req), kind, req.body));
    });
    router.delete(`${path}/:id`, async (req, res) => {
      await deleteRecord(req.ctx, actorOf(req), kind, req.params.id);
      res.status(204).end();
    });
  }
  return router;
}
