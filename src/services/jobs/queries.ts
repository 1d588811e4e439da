import type { Knex } from 'knex';
import { decodeRow, encodeRow, encodeTimestamp } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import type { JobFailure, JobState, JobType } from '@shared/schemas/jobs.js';

export interface JobRow {
  id: number;
  type: JobType;
  state: JobState;
  params: Record<string, unknown>;
  trigger: string;
  startedBy: number | null;
  startedByEmail?: string | null;
  activeKey: string | null;
  progressDone: number;
  progressTotal: number | null;
  phase: string | null;
  result: Record<string, unknown> | null;
  error: JobFailure | null;
  attempts: number;
  cancelRequested: boolean;
  leaseOwner: string | null;
  leaseExpiresAt: string | null;
  runAfter: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  updatedAt: string;
}

const JSON_COLUMNS = ['params', 'result', 'error'] as const;

function decodeJob(row: Record<string, unknown>): JobRow {
  const decoded = decodeRow<JobRow & Record<string, unknown>>(columnKinds.jobs, row);
  for (const column of JSON_COLUMNS) {
    const value = decoded[column];
    (decoded as Record<string, unknown>)[column] = typeof value === 'string' ? (JSON.parse(value) as unknown) : (value ?? null);
  }
  decoded.id = Number(decoded.id);
  return decoded;
}

function encodeJob(values: Partial<Record<keyof JobRow, unknown>>): Record<string, unknown> {
  const out = encodeRow(columnKinds.jobs, values);
  for (const column of JSON_COLUMNS)
    if (values[column] !== undefined) out[column] = values[column] === null ? null : JSON.stringify(values[column]);
  return out;
}

const isUniqueViolation = (error: unknown) =>
  /UNIQUE constraint failed|ER_DUP_ENTRY|Duplicate entry/i.test(String((error as Error)?.message));

/** A new queued job's id, or null when a job with the same activeKey is already queued or running. */
export async function insertJob(
  db: Knex,
  job: {
    type: JobType;
    params: Record<string, unknown>;
    trigger: string;
    startedBy: number | null;
    activeKey: string | null;
    now: Date;
    /** Not to be run before this (a job whose input is still being stored is held back). */
    runAfter?: Date;
  },
): Promise<number | null> {
  try {
    const [id] = await db('jobs').insert(
      encodeJob({
        type: job.type,
        state: 'queued',
        params: job.params,
        trigger: job.trigger,
        startedBy: job.startedBy,
        activeKey: job.activeKey,
        runAfter: job.runAfter,
        createdAt: job.now,
        updatedAt: job.now,
      }),
    );
    return Number(id);
  } catch (error) {
    if (job.activeKey && isUniqueViolation(error)) return null;
    throw error;
  }
}

/** Lets a held-back queued job run, with its final parameters. */
export async function releaseJob(db: Knex, id: number, params: Record<string, unknown>, now: Date): Promise<void> {
  await db('jobs')
    .where({ id, state: 'queued' })
    .update(encodeJob({ params, runAfter: null, updatedAt: now }));
}

/** Removes a job that never started (its input could not be stored); its input goes with it. */
export async function deleteJob(db: Knex, id: number): Promise<void> {
  await db('job_inputs').where({ jobId: id }).delete();
  await db('jobs').where({ id }).delete();
}

export async function findJob(db: Knex, id: number): Promise<JobRow | null> {
  const row = (await db('jobs')
    .leftJoin('users', 'users.id', 'jobs.startedBy')
    .where('jobs.id', id)
    .first('jobs.*', 'users.email as startedByEmail')) as Record<string, unknown> | undefined;
  return row ? decodeJob(row) : null;
}

export async function listJobRows(db: Knex, filter: { type?: JobType; state?: JobState; limit: number }): Promise<JobRow[]> {
  const query = db('jobs')
    .leftJoin('users', 'users.id', 'jobs.startedBy')
    .select('jobs.*', 'users.email as startedByEmail')
    .orderBy('jobs.id', 'desc')
    .limit(filter.limit);
  if (filter.type) query.where('jobs.type', filter.type);
  if (filter.state) query.where('jobs.state', filter.state);
  return (await query).map(decodeJob);
}

/**
 * Takes the job for `owner` until `leaseExpiresAt`: a queued job, or a running one whose holder went silent past
 * its lease (or any running one when `takeOver`, for a queue that already decided the holder is gone). One UPDATE
 * with the conditions in its WHERE, so two processes never both win.
 */
export async function claimJob(
  db: Knex,
  id: number,
  claim: { owner: string; now: Date; leaseExpiresAt: Date; takeOver: boolean },
): Promise<boolean> {
  const now = encodeTimestamp(claim.now);
  const changed = await db('jobs')
    .where({ id, cancelRequested: 0 })
    .andWhere((q) => {
      q.where('state', 'queued').orWhere((running) => {
        running.where('state', 'running');
        if (!claim.takeOver) running.andWhere((lease) => lease.whereNull('leaseExpiresAt').orWhere('leaseExpiresAt', '<', now));
      });
    })
    .update({
      state: 'running',
      leaseOwner: claim.owner,
      leaseExpiresAt: encodeTimestamp(claim.leaseExpiresAt),
      attempts: db.raw('?? + 1', ['attempts']),
      startedAt: db.raw('COALESCE(??, ?)', ['startedAt', now]),
      runAfter: null,
      updatedAt: now,
    });
  return Number(changed) === 1;
}

/** Progress and a longer lease from the holder; answers whether the job should go on (false: cancelled or taken). */
export async function renewLease(
  db: Knex,
  id: number,
  owner: string,
  update: { now: Date; leaseExpiresAt: Date; done: number; total: number | null; phase: string | null },
): Promise<{ held: boolean; cancelRequested: boolean }> {
  const changed = await db('jobs')
    .where({ id, leaseOwner: owner, state: 'running' })
    .update(
      encodeJob({
        leaseExpiresAt: update.leaseExpiresAt,
        progressDone: update.done,
        progressTotal: update.total,
        phase: update.phase,
        updatedAt: update.now,
      }),
    );
  const row = (await db('jobs').where({ id }).first('cancelRequested')) as { cancelRequested: unknown } | undefined;
  return { held: Number(changed) === 1, cancelRequested: Boolean(Number(row?.cancelRequested ?? 0)) };
}

/**
 * Keeps what a job's committed work counted so far in its params (an import's checkpoint), while `owner` holds
 * it: whoever takes the job over starts from there, so the summary counts the earlier holder's work too.
 */
export async function saveJobParams(db: Knex, id: number, owner: string, params: Record<string, unknown>, now: Date): Promise<void> {
  await db('jobs')
    .where({ id, leaseOwner: owner, state: 'running' })
    .update(encodeJob({ params, updatedAt: now }));
}

/** Whether someone asked the job to stop (read at each batch boundary: one primary-key lookup). */
export async function cancelRequested(db: Knex, id: number): Promise<boolean> {
  const row = (await db('jobs').where({ id }).first('cancelRequested')) as { cancelRequested: unknown } | undefined;
  return Boolean(Number(row?.cancelRequested ?? 0));
}

/** Ends the holder's run of a job: finished (state, result or error) or back to queued for another attempt. */
export async function settleJob(
  db: Knex,
  id: number,
  owner: string,
  outcome: {
    state: JobState;
    now: Date;
    result?: Record<string, unknown> | null;
    error?: JobFailure | null;
    progress?: { done: number; total: number | null; phase: string | null };
    runAfter?: Date;
  },
): Promise<boolean> {
  const finished = outcome.state !== 'queued';
  const changed = await db('jobs')
    .where({ id, leaseOwner: owner, state: 'running' })
    .update(
      encodeJob({
        state: outcome.state,
        result: outcome.result,
        error: outcome.error,
        progressDone: outcome.progress?.done,
        progressTotal: outcome.progress?.total,
        phase: outcome.progress?.phase,
        leaseOwner: null,
        leaseExpiresAt: null,
        runAfter: outcome.runAfter ?? null,
        activeKey: finished ? null : undefined,
        finishedAt: finished ? outcome.now : undefined,
        updatedAt: outcome.now,
      }),
    );
  return Number(changed) === 1;
}

/** Asks a running job to stop at its next batch; a queued one is cancelled at once. Answers the row's state after. */
export async function requestCancel(db: Knex, id: number, now: Date): Promise<void> {
  const at = encodeTimestamp(now);
  await db('jobs')
    .where({ id, state: 'queued' })
    .update({ state: 'cancelled', cancelRequested: 1, activeKey: null, finishedAt: at, updatedAt: at });
  await db('jobs').where({ id, state: 'running' }).update({ cancelRequested: 1, updatedAt: at });
}

/** Jobs a runner should (re)start: queued and due, or running under a lease that ran out (its holder died). */
export async function findRunnableJobs(db: Knex, types: readonly JobType[], now: Date): Promise<Array<{ id: number; type: JobType }>> {
  const at = encodeTimestamp(now);
  const rows = (await db('jobs')
    .whereIn('type', types)
    .andWhere((q) => {
      q.where((queued) => queued.where('state', 'queued').andWhere((due) => due.whereNull('runAfter').orWhere('runAfter', '<=', at)));
      q.orWhere((stale) => stale.where('state', 'running').andWhere('leaseExpiresAt', '<', at));
    })
    .orderBy('id')
    .limit(100)
    .select('id', 'type')) as Array<{ id: number; type: JobType }>;
  return rows.map((row) => ({ id: Number(row.id), type: row.type }));
}

/** How many jobs wait or run, by type and state (the queue depth the metrics report; the state index answers it). */
export async function countUnfinishedJobs(db: Knex): Promise<Array<{ type: JobType; state: JobState; count: number }>> {
  const rows = (await db('jobs')
    .whereIn('state', ['queued', 'running'])
    .groupBy('state', 'type')
    .select('state', 'type')
    .count({ count: '*' })) as Array<{ type: JobType; state: JobState; count: number | string }>;
  return rows.map((row) => ({ type: row.type, state: row.state, count: Number(row.count) }));
}

/** Input bytes are stored in chunks small enough for a MySQL BLOB (64 KiB). */
export const INPUT_CHUNK_BYTES = 60_000;

export async function insertInputChunks(db: Knex | Knex.Transaction, jobId: number, firstSeq: number, chunks: Buffer[]): Promise<void> {
  if (chunks.length === 0) return;
  await db('job_inputs').insert(chunks.map((bytes, index) => ({ jobId, seq: firstSeq + index, bytes })));
}

export async function readInputChunks(
  db: Knex,
  jobId: number,
  fromSeq: number,
  limit: number,
): Promise<Array<{ seq: number; bytes: Buffer }>> {
  const rows = (await db('job_inputs')
    .where({ jobId })
    .andWhere('seq', '>=', fromSeq)
    .orderBy('seq')
    .limit(limit)
    .select('seq', 'bytes')) as Array<{
    seq: number;
    bytes: Buffer | Uint8Array;
  }>;
  return rows.map((row) => ({ seq: Number(row.seq), bytes: Buffer.from(row.bytes) }));
}

export async function deleteInput(db: Knex, jobId: number): Promise<void> {
  await db('job_inputs').where({ jobId }).delete();
}

/** Takes a schedule's tick: true for exactly one caller across processes, false for everyone else. */
export async function takeScheduleTick(db: Knex, name: string, tick: Date): Promise<boolean> {
  try {
    await db('schedule_ticks').insert({ name, tick: encodeTimestamp(tick) });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}
