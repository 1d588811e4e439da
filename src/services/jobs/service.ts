import type { ApiErrorBody } from '@shared/api-error.js';
import type { SyncKind } from '@shared/record-types.js';
import { isFinished, isJobState, isJobType, JOB_STATES, JOB_TYPES, type JobType, type JobView } from '@shared/schemas/jobs.js';
import type { Actor, AppContext } from '../context.js';
import { AppError, badRequest, conflict, notFound } from '../errors.js';
import { SyncBusyError } from '../sync/service.js';
import { jobDispatcher } from './dispatch.js';
import { executeJob, newLeaseOwner, type ExecuteOptions } from './execute.js';
import type { RowsContainer } from '../imports/json-rows.js';
import { storeInput } from './input.js';
import { deleteJob, findJob, insertJob, listJobRows, releaseJob, requestCancel, type JobRow } from './queries.js';
import { requireRole } from '../roles.js';

/** The job as the API answers it: who started it by email, progress in one object, the input left out. */
function presentJob(row: JobRow): JobView {
  const { input: _input, resumeFrom: _resumeFrom, ...params } = row.params;
  return {
    id: row.id,
    type: row.type,
    state: row.state,
    params,
    trigger: row.trigger,
    startedBy: row.startedByEmail ?? null,
    progress: { done: row.progressDone, total: row.progressTotal, phase: row.phase },
    result: row.result,
    error: row.error,
    attempts: row.attempts,
    cancelRequested: row.cancelRequested,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    updatedAt: row.updatedAt,
  };
}

/** Jobs that must never overlap share a key while queued or running: one sync of a kind at a time. */
function activeKeyOf(type: JobType, params: Record<string, unknown>): string | null {
  return type === 'sync' ? `sync:${String(params.kind)}` : null;
}

/**
 * Records a new queued job. A second sync of a kind while one is queued or running is refused here, across every
 * process (the database's unique key decides), with the same "already running" answer the sync lock gives.
 */
export async function createJob(
  ctx: AppContext,
  actor: Actor,
  type: JobType,
  params: Record<string, unknown>,
  options: { trigger?: string; hold?: boolean } = {},
): Promise<number> {
  requireRole(actor, 'staff');
  const now = ctx.clock.now();
  const id = await insertJob(ctx.db, {
    type,
    params,
    trigger: options.trigger ?? actor.source,
    startedBy: actor.userId,
    activeKey: activeKeyOf(type, params),
    now,
    runAfter: options.hold ? new Date(now.getTime() + INPUT_HOLD_MS) : undefined,
  });
  if (id === null) throw new SyncBusyError(params.kind as SyncKind);
  return id;
}

/** Hands a recorded job to this process's runner: Redis workers, or the server itself. */
export async function dispatchJob(ctx: AppContext, job: { id: number; type: JobType }): Promise<void> {
  await jobDispatcher(ctx).dispatch(job);
}

export async function startJob(ctx: AppContext, actor: Actor, type: JobType, params: Record<string, unknown>): Promise<number> {
  const id = await createJob(ctx, actor, type, params);
  await dispatchJob(ctx, { id, type });
  return id;
}

/** What an import is asked to do. */
type ImportParams = { kind: 'events' | 'brands'; dryRun?: boolean; batchSize?: number };

/**
 * An import's input: a JSON body as sent (its rows in the body or in its `params`, see RowsContainer), a CSV file
 * as uploaded, or (written by earlier versions, and the tests) checked rows as `{header, rows}`.
 */
export interface ImportJobInput {
  format: 'json' | 'csv' | 'rows';
  bytes: AsyncIterable<Buffer> | Buffer;
  rows?: number;
  container?: RowsContainer;
  /**
   * For input read as it is stored: the import's parameters and rows, known once the last byte is read (the
   * params given to startImportJob are then only what was known at the start).
   */
  settle?: () => { params: ImportParams; rows: number };
}

/** How long a job waits for its input to be stored before it counts as runnable (never reached in practice). */
const INPUT_HOLD_MS = 24 * 3_600_000;

/**
 * Starts an import: the job is recorded held back, its input stored, then released and dispatched, so no runner
 * can start it with half its input. Input that cannot be stored (an upload cut off, too large, refused by the
 * checks that run as it streams) removes the job and whatever of its input was written.
 */
export async function startImportJob(
  ctx: AppContext,
  actor: Actor,
  params: ImportParams | Record<string, never>,
  input: ImportJobInput,
  type: 'import' | 'general-import' = 'import',
): Promise<number> {
  const now = ctx.clock.now();
  const id = (await insertJob(ctx.db, {
    type,
    params,
    trigger: actor.source,
    startedBy: actor.userId,
    activeKey: null,
    now,
    runAfter: new Date(now.getTime() + INPUT_HOLD_MS),
  }))!;
  let bytes: number;
  let settled: { params: ImportParams | Record<string, never>; rows?: number };
  try {
    bytes = await storeInput(ctx.db, id, input.bytes);
    settled = input.settle ? input.settle() : { params, rows: input.rows };
  } catch (error) {
    await deleteJob(ctx.db, id).catch((cleanup: unknown) => ctx.log.warn({ err: cleanup, jobId: id }, 'could not remove an unstarted job'));
    throw error;
  }
  const stored = { format: input.format, bytes, rows: settled.rows, ...(input.container ? { container: input.container } : {}) };
  await releaseJob(ctx.db, id, { ...settled.params, input: stored }, ctx.clock.now());
  await dispatchJob(ctx, { id, type });
  return id;
}

export async function getJob(ctx: AppContext, id: number): Promise<JobView> {
  const row = await findJob(ctx.db, id);
  if (!row) throw notFound('Job not found');
  return presentJob(row);
}

/**
 * The recent jobs, newest first, optionally of one type and state: the query parameters as the API and the Jobs
 * page's URL carry them (`type`, `state`, `limit`), checked here so both answer the same 400.
 */
export async function listJobs(ctx: AppContext, query: { type?: string; state?: string; limit?: string }): Promise<{ items: JobView[] }> {
  const type = query.type || undefined;
  const state = query.state || undefined;
  if (type !== undefined && !isJobType(type)) throw badRequest(`type must be one of: ${JOB_TYPES.join(', ')}`);
  if (state !== undefined && !isJobState(state)) throw badRequest(`state must be one of: ${JOB_STATES.join(', ')}`);
  const limit = Number(query.limit || '50');
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw badRequest('limit must be a whole number from 1 to 200');
  return { items: (await listJobRows(ctx.db, { type, state, limit })).map(presentJob) };
}

/** A queued job is cancelled at once; a running one stops at its next batch boundary. A finished one cannot be. */
export async function cancelJob(ctx: AppContext, actor: Actor, id: number): Promise<JobView> {
  requireRole(actor, 'staff');
  const row = await findJob(ctx.db, id);
  if (!row) throw notFound('Job not found');
  if (isFinished(row.state)) throw conflict(`The job has already ${row.state === 'succeeded' ? 'finished' : row.state}`);
  await requestCancel(ctx.db, id, ctx.clock.now());
  ctx.log.info({ jobId: id }, 'job cancel requested');
  return getJob(ctx, id);
}

/** An answer recorded with a failed job, given back as the endpoint that waited for it would have. */
class RecordedJobError extends AppError {
  constructor(
    private readonly body: Record<string, unknown> & { message: string; code: string; issues?: ApiErrorBody['issues'] },
    status: number,
  ) {
    super(status, body.code, body.message, body.issues);
  }

  override toBody() {
    return this.body;
  }
}

const POLL_MS = 200;

/** What a finished job's row says: its result, or its recorded error thrown. */
function outcomeOf(row: JobRow): Record<string, unknown> | null {
  if (row.state === 'succeeded') return row.result ?? {};
  if (row.state === 'failed' && row.error)
    throw new RecordedJobError(row.error.body as ConstructorParameters<typeof RecordedJobError>[0], row.error.status);
  if (row.state === 'cancelled') throw conflict('The job was cancelled');
  return null;
}

/**
 * Creates a job and runs it in this process at once (the CLI: its file is here, and cron wants the outcome),
 * recorded like any other so the screens show it; passing failures are retried here after their backoff.
 */
export async function runJobHere(
  ctx: AppContext,
  actor: Actor,
  type: JobType,
  params: Record<string, unknown>,
  options: Omit<ExecuteOptions, 'owner' | 'takeOver'> = {},
): Promise<Record<string, unknown>> {
  // Held back, so a server sharing the database never picks it up before this process claims it.
  const id = await createJob(ctx, actor, type, params, { hold: true });
  const owner = newLeaseOwner();
  for (;;) {
    const outcome = await executeJob(ctx, id, { ...options, owner });
    if (outcome.kind !== 'retry') break;
    await new Promise((resolve) => setTimeout(resolve, outcome.delayMs));
  }
  const row = (await findJob(ctx.db, id))!;
  const result = outcomeOf(row);
  if (!result) throw new Error(`Job ${id} was taken over by another process`);
  return result;
}

/**
 * Waits for a job to finish and answers its result, or throws the error it failed with (the same status and body
 * as before jobs existed), for the endpoints whose callers expect the outcome in the answer.
 */
export async function waitForJob(ctx: AppContext, id: number, signal?: AbortSignal): Promise<Record<string, unknown>> {
  for (;;) {
    const row = await findJob(ctx.db, id);
    if (!row) throw notFound('Job not found');
    const result = outcomeOf(row);
    if (result) return result;
    if (signal?.aborted) throw badRequest('The client went away');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
