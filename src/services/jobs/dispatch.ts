import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import { JOB_TYPES, type JobType } from '@shared/schemas/jobs.js';
import type { AppContext } from '../context.js';
import { executeJob, newLeaseOwner } from './execute.js';
import { findRunnableJobs } from './queries.js';

/**
 * Where a recorded job goes to run. With REDIS_URL set: a BullMQ queue per job type, served by `pacer worker`
 * processes (the web process only enqueues). Without it: the server process runs the jobs itself, one at a time
 * per type. Either way the job's row is the truth; the queue only says who runs it next.
 */
export interface JobDispatcher {
  readonly mode: 'embedded' | 'queue';
  dispatch(job: { id: number; type: JobType }): Promise<void>;
  /** Takes no more jobs; waits for those in hand unless `leaveRunning` (a stopping server: they are taken up again). */
  close(options?: { leaveRunning?: boolean }): Promise<void>;
}

/** BullMQ job ids may not be plain numbers. */
const queueJobId = (id: number) => `job-${id}`;

/**
 * A Redis connection for BullMQ; the caller closes it with closeRedis. BullMQ's workers block on Redis and need
 * commands that wait for a reconnect instead of failing after a few retries (maxRetriesPerRequest: null).
 */
export async function redisConnection(url: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  return new Redis(url, { maxRetriesPerRequest: null });
}

/**
 * BullMQ (with ioredis) loads only in queue mode, when first needed: the embedded server never uses it, and loading
 * it costs a start about 200 ms of CPU.
 */
export const loadBullmq = () => import('bullmq');

export const closeRedis = (connection: Redis) => void connection.quit().catch(() => undefined);

/**
 * The embedded runner. Also sweeps the table every lease: jobs queued by another process of the same database,
 * retries that are due, and running jobs whose holder died (kill -9) once their lease has run out.
 */
class EmbeddedRunner implements JobDispatcher {
  readonly mode = 'embedded';
  private readonly owner = newLeaseOwner();
  private readonly lanes = new Map<JobType, { waiting: number[]; draining: Promise<void> | null }>();
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly ctx: AppContext) {
    this.sweeper = setInterval(() => void this.sweep(), ctx.config.jobs.leaseMs);
    this.sweeper.unref();
    void this.sweep();
  }

  async dispatch(job: { id: number; type: JobType }): Promise<void> {
    this.enqueue(job.id, job.type);
  }

  private lane(type: JobType) {
    let lane = this.lanes.get(type);
    if (!lane) this.lanes.set(type, (lane = { waiting: [], draining: null }));
    return lane;
  }

  private enqueue(id: number, type: JobType) {
    if (this.closed) return;
    const lane = this.lane(type);
    if (!lane.waiting.includes(id)) lane.waiting.push(id);
    lane.draining ??= this.drain(type).finally(() => (lane.draining = null));
  }

  private async drain(type: JobType) {
    const lane = this.lane(type);
    for (let id = lane.waiting.shift(); id !== undefined && !this.closed; id = lane.waiting.shift()) {
      try {
        const outcome = await executeJob(this.ctx, id, { owner: this.owner });
        if (outcome.kind === 'retry') {
          const jobId = id;
          setTimeout(() => this.enqueue(jobId, type), outcome.delayMs).unref();
        }
      } catch (error) {
        this.ctx.log.error({ err: error, jobId: id }, 'could not run the job');
      }
    }
  }

  private async sweep() {
    if (this.closed) return;
    try {
      for (const job of await findRunnableJobs(this.ctx.db, JOB_TYPES, this.ctx.clock.now())) this.enqueue(job.id, job.type);
    } catch (error) {
      if (!this.closed) this.ctx.log.warn({ err: error }, 'could not look for jobs to run');
    }
  }

  async close(options: { leaveRunning?: boolean } = {}) {
    this.closed = true;
    clearInterval(this.sweeper);
    if (!options.leaveRunning) await Promise.all([...this.lanes.values()].map((lane) => lane.draining));
  }
}

class QueueDispatcher implements JobDispatcher {
  readonly mode = 'queue';
  private readonly queues = new Map<JobType, Promise<Queue>>();
  private readonly connections: Array<Promise<Redis>> = [];

  constructor(private readonly ctx: AppContext) {}

  queue(type: JobType): Promise<Queue> {
    let queue = this.queues.get(type);
    if (!queue) {
      const settings = this.ctx.config.jobs;
      const connection = redisConnection(settings.redisUrl!);
      this.connections.push(connection);
      queue = Promise.all([loadBullmq(), connection]).then(([{ Queue }, redis]) => {
        const made = new Queue(type, { connection: redis, prefix: settings.queuePrefix });
        made.on('error', (error) => this.ctx.log.warn({ err: error }, 'job queue connection problem'));
        return made;
      });
      this.queues.set(type, queue);
    }
    return queue;
  }

  async dispatch(job: { id: number; type: JobType }): Promise<void> {
    const settings = this.ctx.config.jobs;
    await (
      await this.queue(job.type)
    ).add(
      job.type,
      { jobId: job.id },
      {
        jobId: queueJobId(job.id),
        attempts: settings.attempts,
        backoff: { type: 'exponential', delay: settings.backoffMs },
        removeOnComplete: { count: 1000 },
        removeOnFail: { count: 1000 },
      },
    );
  }

  /** Jobs whose rows say they should run but that the queue does not hold (Redis restarted without its data). */
  async requeueLost(): Promise<void> {
    for (const job of await findRunnableJobs(this.ctx.db, JOB_TYPES, this.ctx.clock.now())) {
      const queued = await (await this.queue(job.type)).getJob(queueJobId(job.id));
      if (!queued) {
        this.ctx.log.warn({ jobId: job.id }, 'job missing from the queue; queueing it again');
        await this.dispatch(job);
      }
    }
  }

  async close() {
    await Promise.all([...this.queues.values()].map(async (queue) => (await queue).close()));
    this.queues.clear();
    for (const connection of await Promise.all(this.connections.splice(0))) closeRedis(connection);
  }
}

const dispatchers = new WeakMap<Knex, JobDispatcher>();

/** This process's dispatcher for the context's database, made on first use. */
export function jobDispatcher(ctx: AppContext): JobDispatcher {
  let dispatcher = dispatchers.get(ctx.db);
  if (!dispatcher) {
    // The runner outlives the request that may have made it: it logs through the process's logger, not a request's.
    dispatcher = ctx.config.jobs.redisUrl ? new QueueDispatcher(ctx) : new EmbeddedRunner(ctx);
    dispatchers.set(ctx.db, dispatcher);
  }
  return dispatcher;
}

export async function closeJobDispatcher(ctx: AppContext, options: { leaveRunning?: boolean } = {}): Promise<void> {
  const dispatcher = dispatchers.get(ctx.db);
  dispatchers.delete(ctx.db);
  await dispatcher?.close(options);
}

/**
 * A `pacer worker` process: a BullMQ worker per job type with its configured concurrency. BullMQ's lock is the
 * lease: a worker that dies (kill -9) stops renewing it, and once it runs out another worker's stalled-job check
 * puts the job back in the queue, where it is picked up and run again (imports and syncs are idempotent).
 */
export async function startWorkers(ctx: AppContext): Promise<{ close(): Promise<void> }> {
  const settings = ctx.config.jobs;
  if (!settings.redisUrl) throw new Error('REDIS_URL is not set');
  const { Worker } = await loadBullmq();
  const owner = newLeaseOwner();
  const dispatcher = jobDispatcher(ctx) as QueueDispatcher;
  const connections: Redis[] = [];
  for (const _type of JOB_TYPES) connections.push(await redisConnection(settings.redisUrl));
  const workers = JOB_TYPES.map((type, index) => {
    const connection = connections[index]!;
    const worker = new Worker(
      type,
      async (queued) => {
        const outcome = await executeJob(ctx, Number((queued.data as { jobId: number }).jobId), { owner, takeOver: true });
        // BullMQ runs it again after its backoff; the row already says it is queued for another attempt.
        if (outcome.kind === 'retry') throw new Error('passing failure; trying again');
      },
      {
        connection,
        prefix: settings.queuePrefix,
        concurrency: settings.concurrency[type],
        lockDuration: settings.leaseMs,
        stalledInterval: Math.max(1000, Math.floor(settings.leaseMs / 2)),
        maxStalledCount: 5,
      },
    );
    worker.on('error', (error) => ctx.log.warn({ err: error, type }, 'job worker connection problem'));
    return worker;
  });
  const sweep = setInterval(
    () => void dispatcher.requeueLost().catch((error: unknown) => ctx.log.warn({ err: error }, 'requeue failed')),
    settings.leaseMs,
  );
  sweep.unref();
  ctx.log.info({ concurrency: settings.concurrency, prefix: settings.queuePrefix }, 'job workers started');
  return {
    async close() {
      clearInterval(sweep);
      await Promise.all(workers.map((worker) => worker.close()));
      for (const connection of connections) closeRedis(connection);
      await closeJobDispatcher(ctx);
    },
  };
}
