import express, { Router, type RequestHandler } from 'express';
import { badRequest } from '@services/errors.js';
import { ImportParamsSchema, SyncParamsSchema } from '@services/jobs/handlers.js';
import { cancelJob, getJob, listJobs, startJob } from '@services/jobs/service.js';
import { PushOptionsSchema } from '@services/newsletter/service.js';
import { parseInput } from '@services/validate.js';
import { isJobType, JOB_TYPES, type JobType } from '@shared/schemas/jobs.js';
import { actorOf } from '../actor.js';
import { requireRole } from '@services/roles.js';
import { startImportFromRequest } from '../imports/index.js';
import { boundLargeBodies } from '../imports/large-bodies.js';
import { defineRead, type ReadRoute } from '../reads.js';

function jobIdOf(value: string | undefined): number {
  const id = Number(value);
  if (!Number.isInteger(id) || id < 1) throw badRequest('A job id is a whole number above 0');
  return id;
}

/** GET endpoints of this area: one job, and the recent ones (optionally of one type and state). */
export const jobsReads: ReadRoute[] = [
  defineRead('/api/jobs', ({ ctx, query }) =>
    listJobs(ctx, { type: query.get('type') ?? undefined, state: query.get('state') ?? undefined, limit: query.get('limit') ?? undefined }),
  ),
  defineRead('/api/jobs/:id', ({ ctx, params }) => getJob(ctx, jobIdOf(params.id))),
];

/** The screens send a whole file's rows as JSON, as the import endpoints take them. */
const JOB_BODY_LIMIT = '50mb';

/**
 * POST /api/jobs `{type, params}` answers `{id}` at once; the job runs in a worker (or the server) and is read back
 * through GET /api/jobs/{id}. An import's rows go in params (`data`, `lines`, as the import endpoints take them),
 * or its CSV file as multipart/form-data to `/api/jobs?type=import&kind=brands`.
 */
export function jobsRouter(): Router {
  const router = Router();
  // A viewer is refused before the (up to 50 MB) body is read.
  const staffOnly: RequestHandler = (req, _res, next) => {
    requireRole(actorOf(req), 'staff');
    next();
  };
  router.post('/jobs', staffOnly, boundLargeBodies, express.json({ limit: JOB_BODY_LIMIT }), async (req, res) => {
    const multipart = req.is('multipart/form-data');
    const body = (multipart ? { type: req.query.type, params: { kind: req.query.kind } } : (req.body ?? {})) as {
      type?: unknown;
      params?: unknown;
    };
    if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('Send {type, params}');
    const type = String(body.type ?? '');
    if (!isJobType(type)) throw badRequest(`type must be one of: ${JOB_TYPES.join(', ')}`);
    const params = (body.params ?? {}) as Record<string, unknown>;
    if (typeof params !== 'object' || Array.isArray(params)) throw badRequest('params must be an object');
    // A backup holds every row and file: only an admin starts one, at POST /api/backups.
    if (type === 'backup') throw badRequest('Start a backup at POST /api/backups (admins only)');
    let id: number;
    if (type === 'import') {
      const { data, lines, ...rest } = params;
      const asked = parseInput(ImportParamsSchema.omit({ batchSize: true }), multipart ? { kind: params.kind } : rest);
      id = await startImportFromRequest(req, asked.kind, { dryRun: asked.dryRun, body: { data, lines } });
    } else {
      id = await startJob(req.ctx, actorOf(req), type, validParams(type, params));
    }
    res.status(202).json({ id });
  });
  router.post('/jobs/:id/cancel', async (req, res) => {
    res.json(await cancelJob(req.ctx, actorOf(req), jobIdOf(String(req.params.id))));
  });
  return router;
}

function validParams(type: Exclude<JobType, 'import' | 'backup'>, params: Record<string, unknown>): Record<string, unknown> {
  return type === 'sync' ? parseInput(SyncParamsSchema, params) : parseInput(PushOptionsSchema, params);
}
