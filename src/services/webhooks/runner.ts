import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import type { AppContext } from '../context.js';
import { closeRedis, loadBullmq, redisConnection } from '../jobs/dispatch.js';
import { forgetSubscriptions, leaseFrom, onDeliveriesCommitted } from './outbox.js';
import {
  type AttemptAnswer,
  claimDeliveries,
  earlierUnfinished,
  findDeliveryJobs,
  findDueDeliveries,
  type DeliveryJob,
  markFailing,
  nextOfSubject,
  releaseDeliveries,
  settleDelivered,
  settleDelivery,
  updateEndpoint,
} from './queries.js';
import type { SendResult } from './send.js';
import { sendFromThread, stopSendingThread } from './sender.js';

/**
 * Retries after the first attempt, in multiples of WEBHOOK_BACKOFF_MS (5 s by default): 5 s, 30 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h, 10 h. Three tries within the first minute, nine over about 27 hours.
 */
const RETRY_STEPS = [1, 6, 60, 360, 1440, 3600, 7200, 7200];
const MAX_ATTEMPTS = RETRY_STEPS.length + 1;
/** An endpoint that has failed every attempt for this long is disabled. */
export const FAILING_LIMIT_MS = 3 * 86_400_000;

const retryDelayMs = (ctx: AppContext, attempts: number) => RETRY_STEPS[attempts - 1]! * ctx.config.webhooks.backoffMs;

/**
 * Subjects (endpoint and subject key) of which this process skipped a delivery because an earlier one had not
 * finished: only then does finishing a delivery look for the next one at once. One held back by another process
 * is found by that process's sweep.
 */
const heldBack = new Set<string>();
const holdKey = (job: { endpointId: number; subjectKey: string | null }) => `${job.endpointId}|${job.subjectKey}`;

async function nextHeldBack(ctx: AppContext, job: DeliveryJob): Promise<{ id: number; attempts: number } | null> {
  if (job.subjectKey === null || !heldBack.delete(holdKey(job))) return null;
  return nextOfSubject(ctx.db, job);
}

/** A delivery handed to a runner: its id, and what sending it needs when a commit of this process told it. */
interface Handed {
  id: number;
  job?: DeliveryJob;
}

/** What came of one claimed delivery's attempt, for the runner to hand over what follows it. */
type DeliveryOutcome =
  | { kind: 'delivered' | 'failed'; job: DeliveryJob; next: { id: number; attempts: number } | null }
  | { kind: 'retry'; job: DeliveryJob; delayMs: number; attempts: number };

/**
 * Takes a batch of deliveries for one attempt each: loads those not known from a commit (one query), leaves out
 * those that wait (an earlier delivery of the same subject to the same endpoint has not finished, so an endpoint
 * receives the changes of one record in the order they were made; that one's end hands this one over), and claims
 * the rest in one statement. Deliveries to a disabled endpoint wait until it is enabled again.
 */
async function claimBatch(ctx: AppContext, handed: readonly Handed[]): Promise<DeliveryJob[]> {
  const loaded = await findDeliveryJobs(
    ctx.db,
    handed.filter((item) => !item.job).map((item) => item.id),
  );
  const now = ctx.clock.now();
  // Written claimed by this process's commit, with time enough left on that lease for the send.
  const ownLease = (job: DeliveryJob) =>
    job.state === 'sending' &&
    job.leaseUntil !== null &&
    new Date(job.leaseUntil).getTime() - now.getTime() > ctx.config.webhooks.timeoutMs + 10_000;
  const mine = new Set(handed.flatMap((item) => (item.job && ownLease(item.job) ? [item.id] : [])));
  const jobs = [...handed.flatMap((item) => (item.job ? [item.job] : [])), ...loaded].filter(
    (job) => job.enabled && (job.state === 'pending' || job.state === 'sending'),
  );
  const behind = await earlierUnfinished(ctx.db, jobs);
  for (const job of jobs) if (behind.has(job.id)) heldBack.add(holdKey(job));
  // One of ours that must wait goes back to waiting, where the end of the one before it finds it.
  await releaseDeliveries(
    ctx.db,
    [...mine].filter((id) => behind.has(id)),
    now,
  );
  const ready = jobs.filter((job) => !behind.has(job.id));
  // Every send of the batch starts at once and ends within its timeout: the lease covers the batch.
  const claimed = await claimDeliveries(
    ctx.db,
    ready.filter((job) => !mine.has(job.id)).map((job) => job.id),
    now,
    leaseFrom(ctx, now),
  );
  return ready.filter((job) => mine.has(job.id) || claimed.has(job.id));
}

/**
 * Sends claimed deliveries at once and settles them: every 2xx in one statement, each failure on its own (with
 * its retry, the endpoint's failing mark, and disabling after 3 days of failures).
 */
async function sendBatch(ctx: AppContext, jobs: readonly DeliveryJob[]): Promise<DeliveryOutcome[]> {
  const settings = ctx.config.webhooks;
  const results = await sendFromThread(jobs, settings);
  const now = ctx.clock.now();
  const answerOf = (result: SendResult) => ({
    responseStatus: result.status,
    responseBody: result.body,
    error: result.error,
    durationMs: result.durationMs,
  });
  const delivered = jobs.flatMap((job, index) => (results[index]!.ok ? [{ job, result: results[index]! }] : []));
  await settleDelivered(
    ctx.db,
    delivered.map(({ job, result }) => ({ id: job.id, ...answerOf(result) })),
    now,
  );
  // Any success clears the endpoint's failing mark: once per endpoint.
  for (const endpointId of new Set(delivered.filter(({ job }) => job.failing).map(({ job }) => job.endpointId)))
    await updateEndpoint(ctx.db, endpointId, { failingSince: null, now });
  const outcomes: DeliveryOutcome[] = [];
  for (const { job, result } of delivered) {
    ctx.log.info(
      {
        webhookDelivery: job.id,
        endpointId: job.endpointId,
        status: result.status,
        attempts: job.attempts + 1,
        durationMs: result.durationMs,
      },
      'webhook delivered',
    );
    outcomes.push({ kind: 'delivered', job, next: await nextHeldBack(ctx, job) });
  }
  for (const [index, job] of jobs.entries()) {
    const result = results[index]!;
    if (!result.ok) outcomes.push(await settleFailure(ctx, job, result, answerOf(result), now));
  }
  return outcomes;
}

/** One failed attempt: marks the endpoint failing (disabled after 3 days of it), then a retry or failed for good. */
async function settleFailure(
  ctx: AppContext,
  job: DeliveryJob,
  result: SendResult,
  answer: AttemptAnswer,
  now: Date,
): Promise<DeliveryOutcome> {
  const attempts = job.attempts + 1;
  const log = ctx.log.child({ webhookDelivery: job.id, endpointId: job.endpointId });
  const failingSince = await markFailing(ctx.db, job.endpointId, now);
  forgetSubscriptions(ctx.db);
  if (failingSince && now.getTime() - new Date(failingSince).getTime() >= FAILING_LIMIT_MS) {
    await updateEndpoint(ctx.db, job.endpointId, {
      enabled: false,
      disabledReason: `Disabled after failing every delivery for 3 days (since ${failingSince}): ${result.error ?? 'no answer'}`.slice(
        0,
        300,
      ),
      now,
    });
    log.warn({ failingSince }, 'webhook endpoint disabled after failing for 3 days');
  }
  if (attempts < MAX_ATTEMPTS) {
    const delayMs = retryDelayMs(ctx, attempts);
    await settleDelivery(ctx.db, job.id, { ...answer, state: 'pending', now, nextAttemptAt: new Date(now.getTime() + delayMs) });
    log.warn({ status: result.status, error: result.error, attempts, delayMs }, 'webhook delivery failed; it will be tried again');
    return { kind: 'retry', job, delayMs, attempts };
  }
  await settleDelivery(ctx.db, job.id, { ...answer, state: 'failed', now });
  log.warn({ status: result.status, error: result.error, attempts }, 'webhook delivery failed for good');
  return { kind: 'failed', job, next: await nextHeldBack(ctx, job) };
}

/** Who sends this process's deliveries: the process itself, or BullMQ workers. */
interface WebhookRunner {
  /** Hands a delivery (with the attempts it had) to whoever sends it, after `delayMs`. */
  dispatch(delivery: { id: number; attempts: number; job?: DeliveryJob }, delayMs: number): Promise<void>;
  /** Hands over every delivery that is due. */
  sweep(): Promise<void>;
  close(): Promise<void>;
}

/** How often a runner looks for deliveries written by another process (the CLI) or left behind by a crash. */
const SWEEP_MS = 5000;
/**
 * `pacer worker`: BullMQ jobs it holds at once, one delivery attempt each. Those that arrive within WORKER_GATHER_MS
 * of each other (or WORKER_CONCURRENCY of them) go out as one batch, as the embedded runner's do: one load, one
 * ordering query, one claim and one settle for its successes, where each job cost those four on its own.
 */
const WORKER_CONCURRENCY = 16;
const WORKER_GATHER_MS = 20;
/**
 * The embedded runner's batches: deliveries handed over within GATHER_MS (or while the previous batch was being
 * claimed) go out together, at most BATCH_MAX of them (a full one at once), with at most BATCHES_IN_FLIGHT batches
 * sending at once. A batch costs two or three statements (ordering, a claim unless written claimed, one settle for
 * its successes) whatever its size, where one delivery at a time cost three per delivery, two of them commits
 * (ADR 0098). A webhook waits up to GATHER_MS longer for it; BATCH_MAX × BATCHES_IN_FLIGHT requests over the
 * agent's 8 sockets per host keep even a slow receiver's queue within the send timeout.
 */
const GATHER_MS = 100;
const BATCH_MAX = 16;
const BATCHES_IN_FLIGHT = 3;

abstract class BaseRunner implements WebhookRunner {
  protected closed = false;
  private sweeping: Promise<void> | null = null;
  private again = false;
  private readonly timer: NodeJS.Timeout | null;

  constructor(
    protected readonly ctx: AppContext,
    sweepsItself: boolean,
  ) {
    this.timer = sweepsItself ? setInterval(() => void this.sweep(), SWEEP_MS) : null;
    this.timer?.unref();
  }

  abstract dispatch(delivery: { id: number; attempts: number }, delayMs: number): Promise<void>;

  /** One sweep at a time; a call while one runs makes one more run after it (a commit it may have missed). */
  sweep(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.sweeping) {
      this.again = true;
      return this.sweeping;
    }
    this.sweeping = (async () => {
      do {
        this.again = false;
        try {
          for (const delivery of await findDueDeliveries(this.ctx.db, this.ctx.clock.now())) await this.dispatch(delivery, 0);
        } catch (error) {
          if (!this.closed) this.ctx.log.warn({ err: error }, 'could not look for webhook deliveries');
        }
      } while (this.again && !this.closed);
    })().finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  /**
   * Runs one attempt of each delivery handed (those it can claim) and hands over what follows each: its retry, or
   * the next change of the same subject. `claimed` is told once the batch is claimed, before it is sent.
   */
  protected async run(handed: readonly Handed[], claimed?: () => void): Promise<Set<number>> {
    let jobs: DeliveryJob[];
    try {
      jobs = await claimBatch(this.ctx, handed);
    } finally {
      claimed?.();
    }
    for (const outcome of await sendBatch(this.ctx, jobs)) {
      if (outcome.kind === 'retry') await this.dispatch({ id: outcome.job.id, attempts: outcome.attempts }, outcome.delayMs);
      else if (outcome.next) await this.dispatch(outcome.next, 0);
    }
    return new Set(jobs.map((job) => job.id));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.sweeping;
  }
}

/** Without Redis: the server sends the deliveries itself, in batches (see GATHER_MS), retries on timers. */
class EmbeddedRunner extends BaseRunner {
  /** Deliveries to send, in the order handed, with what sending them needs when a commit of this process told it. */
  private readonly waiting = new Map<number, DeliveryJob | undefined>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Subjects with a delivery in a batch under way: their next one waits for that batch, not behind it in the database. */
  private readonly busySubjects = new Set<string>();
  /** A batch is gathering or being claimed: what is handed meanwhile joins the next one. */
  private forming = false;
  /** The end of the gathering under way, if one is. */
  private gathering: NodeJS.Timeout | null = null;

  async dispatch(delivery: { id: number; job?: DeliveryJob }, delayMs: number): Promise<void> {
    if (this.closed) return;
    if (delayMs <= 0) return this.enqueue(delivery.id, delivery.job);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.enqueue(delivery.id);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private enqueue(id: number, job?: DeliveryJob) {
    if (this.closed) return;
    this.waiting.set(id, job ?? this.waiting.get(id));
    // A full batch need not wait for the end of its gathering.
    if (this.gathering && this.waiting.size >= BATCH_MAX) {
      clearTimeout(this.gathering);
      this.timers.delete(this.gathering);
      this.gathering = null;
      this.start();
    } else this.pump();
  }

  private pump() {
    if (this.closed || this.forming || this.inFlight.size >= BATCHES_IN_FLIGHT || this.waiting.size === 0) return;
    this.forming = true;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.gathering = null;
      this.start();
    }, GATHER_MS);
    this.gathering = timer;
    this.timers.add(timer);
  }

  private start() {
    const batch: Handed[] = [];
    const subjects: string[] = [];
    for (const [id, job] of this.waiting) {
      if (batch.length >= BATCH_MAX) break;
      const subject = job?.subjectKey ? holdKey(job) : null;
      // One delivery per subject in flight: the next goes in a later batch, once this one has settled.
      if (subject !== null) {
        if (this.busySubjects.has(subject)) continue;
        this.busySubjects.add(subject);
        subjects.push(subject);
      }
      this.waiting.delete(id);
      batch.push({ id, job });
    }
    if (batch.length === 0) {
      this.forming = false;
      return;
    }
    const running: Promise<void> = this.run(batch, () => {
      this.forming = false;
      this.pump();
    })
      .then(
        () => undefined,
        (error: unknown) =>
          this.ctx.log.error({ err: error, webhookDeliveries: batch.map((item) => item.id) }, 'could not run webhook deliveries'),
      )
      .finally(() => {
        for (const subject of subjects) this.busySubjects.delete(subject);
        this.inFlight.delete(running);
        this.pump();
      });
    this.inFlight.add(running);
  }

  override async close(): Promise<void> {
    await super.close();
    for (const timer of this.timers) clearTimeout(timer);
    await Promise.all(this.inFlight);
    // Written claimed for this runner and not sent: waiting again, for the next runner's sweep rather than a lease.
    const unsent = [...this.waiting].flatMap(([id, job]) => (job?.state === 'sending' ? [id] : []));
    this.waiting.clear();
    await releaseDeliveries(this.ctx.db, unsent, this.ctx.clock.now()).catch((error: unknown) =>
      this.ctx.log.warn({ err: error }, 'could not give back unsent webhook deliveries'),
    );
  }
}

const QUEUE_NAME = 'webhooks';

/**
 * With Redis: each delivery attempt is a BullMQ job (delayed for a retry), sent by `pacer worker`. The job id names
 * the delivery and its attempt, so the sweep and the commit's notice never queue one attempt twice.
 */
class QueueRunner extends BaseRunner {
  private queue: Promise<Queue> | null = null;
  private readonly connections: Array<Promise<Redis>> = [];
  private worker: { close(): Promise<void> } | null = null;

  constructor(ctx: AppContext, sweepsItself: boolean) {
    super(ctx, sweepsItself);
  }

  private connection(): Promise<Redis> {
    const connection = redisConnection(this.ctx.config.jobs.redisUrl!);
    this.connections.push(connection);
    return connection;
  }

  private queued(): Promise<Queue> {
    this.queue ??= Promise.all([loadBullmq(), this.connection()]).then(([{ Queue }, redis]) => {
      const made = new Queue(QUEUE_NAME, { connection: redis, prefix: this.ctx.config.jobs.queuePrefix });
      made.on('error', (error) => this.ctx.log.warn({ err: error }, 'webhook queue connection problem'));
      return made;
    });
    return this.queue;
  }

  /** Deliveries handed over within one turn of the event loop: queued together, in one round trip to Redis. */
  private adding: { jobs: Parameters<Queue['addBulk']>[0]; done: Promise<void> } | null = null;

  dispatch(delivery: { id: number; attempts: number }, delayMs: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    const job = {
      name: 'deliver',
      data: { deliveryId: delivery.id },
      opts: { jobId: `wh-${delivery.id}-${delivery.attempts}`, delay: Math.max(0, delayMs), removeOnComplete: true, removeOnFail: 1000 },
    };
    if (this.adding) this.adding.jobs.push(job);
    else {
      const jobs = [job];
      const done = new Promise((resolve) => setImmediate(resolve)).then(async () => {
        this.adding = null;
        await (await this.queued()).addBulk(jobs);
      });
      this.adding = { jobs, done };
    }
    return this.adding.done;
  }

  /** The worker's jobs gathering for the next batch, each told when its batch has run. */
  private gathered: Array<{ id: number; done: (error?: unknown) => void }> = [];
  private gatherTimer: NodeJS.Timeout | null = null;

  private inBatch(id: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.gathered.push({ id, done: (error) => (error === undefined ? resolve() : reject(error as Error)) });
      if (this.gathered.length >= WORKER_CONCURRENCY) this.runGathered();
      else this.gatherTimer ??= setTimeout(() => this.runGathered(), WORKER_GATHER_MS);
    });
  }

  private runGathered(): void {
    if (this.gatherTimer) clearTimeout(this.gatherTimer);
    this.gatherTimer = null;
    const batch = this.gathered.splice(0);
    if (batch.length === 0) return;
    this.runBatch(batch.map((item) => item.id)).then(
      () => batch.forEach((item) => item.done()),
      (error: unknown) => batch.forEach((item) => item.done(error ?? new Error('webhook batch failed'))),
    );
  }

  /**
   * One batch of the worker's jobs. A delivery behind an earlier one of the same batch (same subject and endpoint)
   * is not claimed in the first round; its job is still running, so the hand-over at the earlier one's end finds
   * that job and adds nothing: it goes in a next round here, once what was before it has finished.
   */
  private async runBatch(ids: readonly number[]): Promise<void> {
    let left = [...ids];
    while (left.length > 0 && !this.closed) {
      const sent = await this.run(left.map((id) => ({ id })));
      if (sent.size === 0) return;
      left = left.filter((id) => !sent.has(id));
    }
  }

  /** Sends the queued deliveries in this process (`pacer worker`). */
  async work(): Promise<void> {
    const { Worker } = await loadBullmq();
    const worker = new Worker(QUEUE_NAME, async (queued) => this.inBatch(Number((queued.data as { deliveryId: number }).deliveryId)), {
      connection: await this.connection(),
      prefix: this.ctx.config.jobs.queuePrefix,
      concurrency: WORKER_CONCURRENCY,
    });
    worker.on('error', (error) => this.ctx.log.warn({ err: error }, 'webhook worker connection problem'));
    this.worker = worker;
  }

  override async close(): Promise<void> {
    await super.close();
    await this.adding?.done.catch(() => undefined);
    await this.worker?.close();
    if (this.queue) await (await this.queue).close();
    for (const connection of await Promise.all(this.connections.splice(0))) closeRedis(connection);
  }
}

const runners = new WeakMap<Knex, WebhookRunner>();
/** Runners started in this process and not stopped: the sending thread goes with the last one. */
let runnersStarted = 0;

/**
 * Starts this process's webhook delivery: without Redis the server sends them itself; with Redis the server only
 * queues (`role: 'server'`) and `pacer worker` sends them and sweeps (`role: 'worker'`). A transaction that wrote
 * deliveries tells the runner when it commits; the runner also sweeps for those written elsewhere.
 */
export async function startWebhookDelivery(ctx: AppContext, role: 'server' | 'worker'): Promise<void> {
  if (runners.has(ctx.db)) return;
  let runner: WebhookRunner;
  if (!ctx.config.jobs.redisUrl) runner = new EmbeddedRunner(ctx, true);
  else {
    const queued = new QueueRunner(ctx, role === 'worker');
    if (role === 'worker') await queued.work();
    runner = queued;
  }
  runners.set(ctx.db, runner);
  runnersStarted += 1;
  onDeliveriesCommitted(
    ctx.db,
    (deliveries) => {
      if (deliveries === null) void runner.sweep();
      else
        // Queued to Redis in one addBulk, which a Redis failure rejects: the deliveries stay pending in the database,
        // where the worker's sweep finds them. Told in the log, never left as an unhandled rejection.
        Promise.all(deliveries.map((job) => runner.dispatch({ id: job.id, attempts: 0, job }, 0))).catch((error: unknown) =>
          ctx.log.warn(
            { err: error, webhookDeliveries: deliveries.map((job) => job.id) },
            'could not hand webhook deliveries over; the sweep sends them',
          ),
        );
    },
    runner instanceof EmbeddedRunner,
  );
  void runner.sweep();
}

/** Hands one delivery to this process's runner at once (a replay, a test event, an endpoint enabled again). */
export async function dispatchDeliveries(ctx: AppContext, deliveries: ReadonlyArray<{ id: number; attempts: number }>): Promise<void> {
  const runner = runners.get(ctx.db);
  for (const delivery of deliveries) await runner?.dispatch(delivery, 0);
}

export async function stopWebhookDelivery(ctx: AppContext): Promise<void> {
  const runner = runners.get(ctx.db);
  if (!runner) return;
  runners.delete(ctx.db);
  onDeliveriesCommitted(ctx.db, null);
  await runner.close();
  runnersStarted -= 1;
  if (runnersStarted === 0) await stopSendingThread();
}
