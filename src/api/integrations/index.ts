import { Router } from 'express';
import { integrationSettings } from '@services/integrations/clients.js';
import { IntegrationError } from '@services/integrations/errors.js';
import { addAudienceMember, listAudiences, testMailchimp, testWordPress, wordpressSiteInfo } from '@services/integrations/service.js';
import { listRuns } from '@services/sync/queries.js';
import { latestRuns, presentRun } from '@services/sync/service.js';
import { startJob, waitForJob } from '@services/jobs/service.js';
import { actorOf } from '../actor.js';
import type { AppContext } from '@services/context.js';
import { defineRead, type ReadRoute } from '../reads.js';
import { isSyncKind, SYNC_KINDS } from '@shared/record-types.js';
import type { IntegrationsOverview } from '@shared/schemas/integrations.js';

/** What the Integrations page needs on load: which services are set up, and how each sync last went. */
export async function integrationsOverview(ctx: AppContext): Promise<IntegrationsOverview> {
  return { ...integrationSettings(ctx), latestRuns: await latestRuns(ctx) };
}

/** GET endpoints of this area, served by /api (server-side loaders call the same services through src/ssr/data-source.ts). */
export const integrationsReads: ReadRoute[] = [
  defineRead('/api/wordpress/test', ({ ctx }) => testWordPress(ctx)),
  defineRead('/api/wordpress/site-info', ({ ctx }) => wordpressSiteInfo(ctx)),
  defineRead('/api/mailchimp/test', ({ ctx }) => testMailchimp(ctx)),
  defineRead('/api/mailchimp/audiences', ({ ctx }) => listAudiences(ctx)),
  defineRead('/api/integrations/overview', ({ ctx }) => integrationsOverview(ctx)),
  defineRead('/api/sync/runs', async ({ ctx, query }) => {
    const kind = query.get('kind') ?? undefined;
    if (kind !== undefined && !isSyncKind(kind))
      throw new IntegrationError(400, 'bad_request', `kind must be one of: ${SYNC_KINDS.join(', ')}`);
    const limit = Number(query.get('limit') ?? '20');
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new IntegrationError(400, 'bad_request', 'limit must be a whole number from 1 to 100');
    return { items: (await listRuns(ctx.db, kind, limit)).map(presentRun) };
  }),
];

/** Write endpoints of this area (mounted behind the signed-in check and the JSON parser). */
export function integrationsRouter(): Router {
  const router = Router();
  router.post('/sync/:kind', async (req, res) => {
    const kind = String(req.params.kind);
    if (!isSyncKind(kind)) throw new IntegrationError(404, 'not_found', `No sync named ${kind}; use one of: ${SYNC_KINDS.join(', ')}`);
    // Enqueued and waited for: the caller gets the run's result, or its failure, as before jobs existed.
    const id = await startJob(req.ctx, actorOf(req), 'sync', { kind });
    res.json(await waitForJob(req.ctx, id));
  });
  router.post('/mailchimp/audiences/:audienceId/members', async (req, res) => {
    res.json(await addAudienceMember(req.ctx, actorOf(req), String(req.params.audienceId), req.body ?? {}));
  });
  return router;
}
