import { Router, type RequestHandler } from 'express';
import { badRequest } from '@services/errors.js';
import { ImportParamsSchema, SyncParamsSchema } from '@services/jobs/handlers.js';
import { cancelJob, getJob, listJobs, startJob } from '@services/jobs/service.js';
import { PushOptionsSchema } from '@services/newsletter/service.js';
import { parseInput } from '@services/validate.js';
import { isJobType, JOB_TYPES, type JobType } from '@shared/schemas/jobs.js';
import { actorOf } from '../actor.js';
import { requireRole } from '@services/roles.js';
import { startUploadedImport } from '../imports/index.js';
import { receiveJsonBody } from '../imports/json-body.js';
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

/**
 * POST /api/jobs `{type, params}` answers `{id}` at once; the job runs in a worker (or the server) and is read back
 * through GET /api/jobs/{id}. An import's rows go in params (`data`, `lines`, as the import endpoints take them),
 * streamed into the job's stored input as they arrive (up to 50 MB), or its CSV file as multipart/form-data to
 * `/api/jobs?type=import&kind=brands`.
 */
export function jobsRouter(): Router {
  const router = Router();
  // A viewer is refused before the (up to 50 MB) body is read.
  const staffOnly: RequestHandler = (req, _res, next) => {
    requireRole(actorOf(req), 'staff');
    next();
  };
  router.post('/jobs', staffOnly, boundLargeBodies, async (req, res) => {
    if (req.is('multipart/form-data')) {
      const type = String(req.query.type ?? '');
      if (!isJobType(type)) throw badRequest(`type must be one of: ${JOB_TYPES.join(', ')}`);
      if (type !== 'import') throw badRequest('Only an import takes a file');
      const asked = parseInput(ImportParamsSchema.omit({ batchSize: true }), { kind: req.query.kind });
      res.status(202).json({ id: await startUploadedImport(req, asked) });
      return;
    }
    let other: { type: Exclude<JobType, 'import'>; params: Record<string, unknown> } | undefined;
    const { jobId } = await receiveJsonBody(req, 'params', {
      early: (reader) => {
        const kind = (reader.fields.params as Record<string, unknown> | undefined)?.kind;
        return kind === 'events' || kind === 'brands' ? { kind } : ({} as Record<string, never>);
      },
      complete: (reader) => {
        if (reader.shape === 'array') throw badRequest('Send {type, params}');
        const type = String(reader.fields.type ?? '');
        if (!isJobType(type)) throw badRequest(`type must be one of: ${JOB_TYPES.join(', ')}`);
        // A backup holds every row and file: only an admin starts one, at POST /api/backups.
        if (type === 'backup') throw badRequest('Start a backup at POST /api/backups (admins only)');
        if (type === 'general-import') throw badRequest('Start a general import at POST /api/imports (multipart/form-data)');
        const params = (reader.fields.params ?? {}) as Record<string, unknown>;
        if (typeof params !== 'object' || Array.isArray(params)) throw badRequest('params must be an object');
        if (type !== 'import') {
          // The rows were not kept: named, so the job's own check refuses them as fields it does not know.
          const rowKeys = Object.fromEntries(reader.rowKeys().map((key) => [key, null]));
          other = { type, params: validParams(type, { ...params, ...rowKeys }) };
          return null;
        }
        const asked = parseInput(ImportParamsSchema.omit({ batchSize: true }), { ...params });
        reader.checkRows(asked.kind, []);
        return { kind: asked.kind, ...(asked.dryRun ? { dryRun: true } : {}) };
      },
    });
    const id = jobId ?? (await startJob(req.ctx, actorOf(req), other!.type, other!.params));
    res.status(202).json({ id });
  });
  router.post('/jobs/:id/cancel', async (req, res) => {
    res.json(await cancelJob(req.ctx, actorOf(req), jobIdOf(String(req.params.id))));
  });
  return router;
}

function validParams(
  type: Exclude<JobType, 'import' | 'backup' | 'general-import'>,
  params: Record<string, unknown>,
): Record<string, unknown> {
  return type === 'sync' ? parseInput(SyncParamsSchema, params) : parseInput(PushOptionsSchema, params);
}
