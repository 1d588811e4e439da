import { Router } from 'express';
import { parseId } from '@services/attachments/owners.js';
import { activityLogCsv, getActivityLog } from '@services/activity/log.js';
import { getTimeline } from '@services/activity/timeline.js';
import { RECORD_TYPE_INFO, RECORD_TYPES } from '@shared/record-types.js';
import { actorOf } from '../actor.js';
import { defineRead, queryOf, type ReadRoute } from '../reads.js';
import { sendCsv } from '../records/index.js';

/**
 * Activity (issue 33 points 4 and 5; docs/decisions/0106): a record's or a contact's timeline
 * (`GET /api/{type}/{id}/activity?kind=&after=`, anyone signed in) and the site-wide log (`GET /api/activity`, admins).
 */
export const activityReads: ReadRoute[] = [
  ...RECORD_TYPES.map((kind) =>
    defineRead(`${RECORD_TYPE_INFO[kind].apiPath}/:id/activity`, ({ ctx, params, query }) =>
      getTimeline(ctx, kind, parseId(params.id, RECORD_TYPE_INFO[kind].singular), query),
    ),
  ),
  defineRead('/api/contacts/:id/activity', ({ ctx, params, query }) => getTimeline(ctx, 'contact', parseId(params.id, 'Contact'), query)),
  defineRead('/api/activity', ({ ctx, actor, query }) => getActivityLog(ctx, actor, query)),
];

/** `GET /api/activity.csv?user=&kind=&type=&from=&to=`: the log as CSV, streamed (admins). */
export function activityRouter(): Router {
  const router = Router();
  router.get('/activity.csv', async (req, res) => {
    const csv = activityLogCsv(req.ctx, actorOf(req), queryOf(req));
    await sendCsv(req, res, 'activity', csv);
  });
  return router;
}
