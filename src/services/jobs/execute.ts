import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { isTransientTransactionError, withTransaction } from '@db/transaction.js';
import type { JobFailure, JobState } from '@shared/schemas/jobs.js';
import type { AppContext } from '../context.js';
import { isAppError, JobCancelledError, withoutPaths } from '../errors.js';
import { cancelRequested, claimJob, deleteInput, findJob, renewLease, settleJob, type JobRow } from './queries.js';
import { noteJobOutcome } from '../alerts/service.js';
import { countJobOutcome } from '../metrics.js';
import { writeWebhookEvents, type OutboxEvent } from '../webhooks/outbox.js';
import { jobHandlers, type JobProgressUpdate, type LocalImportInput } from './handlers.js';

/** A name for this process's claims: which host and process holds a job (for an admin reading the table). */
export const newLeaseOwner = () => `${hostname()}|${process.pid}|${randomUUID().slice(0, 8)}`;

/** Network failures, 429 and 5xx answers, and lock collisions may pass; anything else (bad input, a bug) will not. */
const TRANSIENT_STATUSES = new Set([429, 502, 503, 504]);
const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'PROTOCOL_CONNECTION_LOST']);

function isTransientFailure(error: unknown): boolean {
  if (isTransientTransactionError(error)) return true;
  if (isAppError(error)) return TRANSIENT_STATUSES.has(error.status);
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TRANSIENT_CODES.has(code);
}

/**
 * What a failed job answers: an AppError's own status and body; anything else a 500 that names the kind of failure
 * but not its message, which can hold file paths or SQL (every role reads the jobs list); the log has it all.
 */
function failureOf(error: unknown): JobFailure {
  if (isAppError(error)) {
    const body = error.toBody() as unknown as Record<string, unknown>;
    return { status: error.status, message: error.message, code: error.code, body };
  }
  const code = (error as { code?: unknown } | null)?.code;
  // A system error (EIO, ENOSPC…) says what went wrong in its first words: kept, with the paths it quotes left out.
  if (typeof code === 'string' && /^E[A-Z]{2,20}$/.test(code) && error instanceof Error) {
    const message = `The job failed: ${withoutPaths(error.message.split('\n')[0]!).slice(0, 300)}`;
    return { status: 500, message, code: 'job_failed', body: { message, code: 'job_failed' } };
  }
  const kind = typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code) ? code : error instanceof Error ? error.name : 'Error';
  const message = `The job failed on our side (${kind}); the server log has the details.`;
  return { status: 500, message, code: 'job_failed', body: { message, code: 'job_failed' } };
}

export type ExecuteOutcome = { kind: 'skipped' } | { kind: 'finished'; state: JobState } | { kind: 'retry'; delayMs: number };

export interface ExecuteOptions {
  owner: string;
  /** The queue has decided the previous holder is gone (BullMQ's stalled-job check): take a running job over. */
  takeOver?: boolean;
  /** An import's file when this process has it at hand (the CLI). */
  local?: LocalImportInput;
  /** Told every progress update as it happens (the CLI's progress bar). */
  onProgress?: (progress: JobProgressUpdate) => void;
}

/**
 * Runs one job to its end in this process: claims its row under a lease, renews the lease while the handler works
 * (writing the progress and noticing a cancel), then records the outcome. A passing failure before the last
 * attempt puts the job back in the queue and answers how long to wait; the caller's queue runs it again.
 */
export async function executeJob(ctx: AppContext, id: number, options: ExecuteOptions): Promise<ExecuteOutcome> {
  const settings = ctx.config.jobs;
  const leaseUntil = () => new Date(ctx.clock.now().getTime() + settings.leaseMs);
  const claimed = await claimJob(ctx.db, id, {
    owner: options.owner,
    now: ctx.clock.now(),
    leaseExpiresAt: leaseUntil(),
    takeOver: options.takeOver ?? false,
  });
  if (!claimed) return { kind: 'skipped' };
  const job = (await findJob(ctx.db, id)) as JobRow;
  const log = ctx.log.child({ jobId: id, jobType: job.type });
  const progress: JobProgressUpdate = { done: job.progressDone, total: job.progressTotal, phase: job.phase };
  const controller = new AbortController();
  let lost = false;
  const renew = async () => {
    const state = await renewLease(ctx.db, id, options.owner, { now: ctx.clock.now(), leaseExpiresAt: leaseUntil(), ...progress });
    if (!state.held) lost = true;
    if (!state.held || state.cancelRequested) controller.abort(new JobCancelledError());
  };
  // Often enough for a progress bar read every second, and well inside the lease.
  const beatMs = Math.min(1000, Math.floor(settings.leaseMs / 3));
  let beating = Promise.resolve();
  const beat = setInterval(() => {
    beating = beating.then(renew).catch((error: unknown) => log.warn({ err: error }, 'could not renew the job lease'));
  }, beatMs);
  beat.unref();
  log.info({ attempt: job.attempts }, 'job started');
  try {
    const result = await jobHandlers[job.type]({
      ctx: { ...ctx, log },
      job,
      async checkpoint() {
        if (!controller.signal.aborted && (await cancelRequested(ctx.db, id))) controller.abort(new JobCancelledError());
        if (controller.signal.aborted) throw new JobCancelledError();
      },
      local: options.local,
      progress(update) {
        Object.assign(progress, update);
        options.onProgress?.({ ...progress });
      },
    });
    clearInterval(beat);
    await beating;
    await finish('succeeded', { result });
    log.info('job succeeded');
    countJobOutcome(job.type, 'succeeded');
    await noteJobOutcome(ctx, job, { succeeded: true });
    return { kind: 'finished', state: 'succeeded' };
  } catch (error) {
    clearInterval(beat);
    await beating;
    if (lost) {
      log.warn('job lease lost to another process; leaving the job to it');
      return { kind: 'skipped' };
    }
    if (error instanceof JobCancelledError || controller.signal.aborted) {
      await finish('cancelled', {});
      log.info({ done: progress.done }, 'job cancelled');
      countJobOutcome(job.type, 'cancelled');
      return { kind: 'finished', state: 'cancelled' };
    }
    const failure = failureOf(error);
    if (isTransientFailure(error) && job.attempts < settings.attempts) {
      const delayMs = settings.backoffMs * 2 ** (job.attempts - 1);
      await settleJob(ctx.db, id, options.owner, {
        state: 'queued',
        now: ctx.clock.now(),
        error: failure,
        progress,
        runAfter: new Date(ctx.clock.now().getTime() + delayMs),
      });
      log.warn({ attempt: job.attempts, delayMs, reason: failure.message }, 'job failed for a passing reason; it will run again');
      countJobOutcome(job.type, 'retried');
      return { kind: 'retry', delayMs };
    }
    await finish('failed', { error: failure });
    // Bad input and services that failed are expected outcomes, told to whoever started the job; anything else is a bug.
    if (!isAppError(error)) log.error({ err: error }, 'job failed');
    else log.info({ reason: failure.message }, 'job failed');
    countJobOutcome(job.type, 'failed');
    // Admins are told once per failure streak, and when it recovers (docs/decisions/0105).
    await noteJobOutcome(ctx, job, { succeeded: false, error: failure.message, status: failure.status });
    return { kind: 'finished', state: 'failed' };
  }

  // One commit: whoever sees the job finished never finds its input still stored.
  async function finish(state: JobState, outcome: { result?: Record<string, unknown>; error?: JobFailure }) {
    await withTransaction(ctx, async (trx) => {
      await settleJob(trx, id, options.owner, {
        state,
        now: ctx.clock.now(),
        progress,
        result: outcome.result ?? null,
        error: outcome.error ?? null,
      });
      await deleteInput(trx, id);
      await writeWebhookEvents(trx, ctx, jobWebhookEvents(job, state, outcome));
    });
  }
}

/** What a finished job tells webhooks: an import's or sync's end, or any job's failure. */
function jobWebhookEvents(job: JobRow, state: JobState, outcome: { result?: Record<string, unknown>; error?: JobFailure }): OutboxEvent[] {
  const { input: _input, resumeFrom: _resumeFrom, ...params } = job.params;
  const about = { jobId: job.id, jobType: job.type, params };
  if (state === 'failed') return [{ type: 'job.failed', subjectKey: null, data: { ...about, error: outcome.error ?? null } }];
  if (job.type !== 'import' && job.type !== 'sync') return [];
  return [{ type: `${job.type}.finished`, subjectKey: null, data: { ...about, state, result: outcome.result ?? null } }];
}
