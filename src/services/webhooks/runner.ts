import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import type { AppContext } from '../context.js';
import { closeRedis, loadBullmq, redisConnection } from '../jobs/dispatch.js';
import { forgetSubscriptions, onDeliveriesCommitted } from './outbox.js';
import {
  claimDelivery,
  earlierUnfinished,
  findDeliveryJob,
  findDueDeliveries,
  type DeliveryJob,
  markFailing,
  nextOfSubject,
  settleDelivery,
  updateEndpoint,
} from './queries.js';
import { sendWebhook } from './send.js';

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

/** What happened to one delivery when a runner took it up. */
type DeliveryOutcome =
  | { kind: 'skipped' }
  | { kind: 'delivered'; next: { id: number; attempts: number } | null }
  | { kind: 'retry'; delayMs: number; attempts: number }
  | { kind: 'failed'; next: { id: number; attempts: number } | null };

/**
 * One attempt at one delivery. Waits (skipped) while an earlier delivery of the same subject to the same endpoint
 * has not finished, so an endpoint receives the changes of one record in the order they were made; that one's
 * end hands this one to the runner (`next`). A delivery to a disabled endpoint waits until it is enabled again.
 */
async function deliverOnce(ctx: AppContext, id: number, known?: DeliveryJob): Promise<DeliveryOutcome> {
  // Just committed in this process: what to send is at hand (the claim below still decides who sends it).
  const job = known ?? (await findDeliveryJob(ctx.db, id));
  if (!job || !job.enabled || (job.state !== 'pending' && job.state !== 'sending')) return { kind: 'skipped' };
  if (await earlierUnfinished(ctx.db, job)) {
    heldBack.add(holdKey(job));
    return { kind: 'skipped' };
  }
  const settings = ctx.config.webhooks;
  const lease = new Date(ctx.clock.now().getTime() + settings.timeoutMs + 60_000);
  if (!(await claimDelivery(ctx.db, id, ctx.clock.now(), lease))) return { kind: 'skipped' };
  const attempts = job.attempts + 1;
  const result = await sendWebhook(job, settings);
  const now = ctx.clock.now();
  const log = ctx.log.child({ webhookDelivery: id, endpointId: job.endpointId });
  const answer = {
    now,
    responseStatus: result.status,
    responseBody: result.body,
    error: result.error,
    durationMs: result.durationMs,
  };
  if (result.ok) {
    await settleDelivery(ctx.db, id, { ...answer, state: 'delivered' });
    if (job.failing) await updateEndpoint(ctx.db, job.endpointId, { failingSince: null, now });
    log.info({ status: result.status, attempts, durationMs: result.durationMs }, 'webhook delivered');
    return { kind: 'delivered', next: await nextHeldBack(ctx, job) };
  }
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
    await settleDelivery(ctx.db, id, { ...answer, state: 'pending', nextAttemptAt: new Date(now.getTime() + delayMs) });
    log.warn({ status: result.status, error: result.error, attempts, delayMs }, 'webhook delivery failed; it will be tried again');
    return { kind: 'retry', delayMs, attempts };
  }
  await settleDelivery(ctx.db, id, { ...answer, state: 'failed' });
  log.warn({ status: result.status, error: result.error, attempts }, 'webhook delivery failed for good');
  return { kind: 'failed', next: await nextHeldBack(ctx, job) };
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
/** Deliveries one embedded runner sends at once. */
const EMBEDDED_CONCURRENCY = 4;

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

  /** Runs one delivery and hands over what follows it: its retry, or the next change of the same subject. */
  protected async run(id: number, known?: DeliveryJob): Promise<void> {
    const outcome = await deliverOnce(this.ctx, id, known);
    if (outcome.kind === 'retry') await this.dispatch({ id, attempts: outcome.attempts }, outcome.delayMs);
    else if ((outcome.kind === 'delivered' || outcome.kind === 'failed') && outcome.next) await this.dispatch(outcome.next, 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.sweeping;
  }
}

/** Without Redis: the server sends the deliveries itself, a few at a time, retries on timers. */
class EmbeddedRunner extends BaseRunner {
  private readonly waiting: number[] = [];
  /** Deliveries handed over by a commit of this process, with what sending them needs. */
  private readonly known = new Map<number, DeliveryJob>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();

  async dispatch(delivery: { id: number; job?: DeliveryJob }, delayMs: number): Promise<void> {
    if (this.closed) return;
    if (delivery.job && delayMs <= 0) this.known.set(delivery.id, delivery.job);
    if (delayMs <= 0) return this.enqueue(delivery.id);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.enqueue(delivery.id);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private enqueue(id: number) {
    if (this.closed || this.waiting.includes(id)) return;
    this.waiting.push(id);
    this.pump();
  }

  private pump() {
    while (!this.closed && this.inFlight.size < EMBEDDED_CONCURRENCY && this.waiting.length > 0) {
      const id = this.waiting.shift()!;
      const known = this.known.get(id);
      this.known.delete(id);
      const running: Promise<void> = this.run(id, known)
        .catch((error: unknown) => this.ctx.log.error({ err: error, webhookDelivery: id }, 'could not run a webhook delivery'))
        .finally(() => {
          this.inFlight.delete(running);
          this.pump();
        });
      this.inFlight.add(running);
    }
  }

  override async close(): Promise<void> {
    await super.close();
    for (const timer of this.timers) clearTimeout(timer);
    await Promise.all(this.inFlight);
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

  async dispatch(delivery: { id: number; attempts: number }, delayMs: number): Promise<void> {
    if (this.closed) return;
    await (
      await this.queued()
    ).add(
      'deliver',
      { deliveryId: delivery.id },
      { jobId: `wh-${delivery.id}-${delivery.attempts}`, delay: Math.max(0, delayMs), removeOnComplete: true, removeOnFail: 1000 },
    );
  }

  /** Sends the queued deliveries in this process (`pacer worker`). */
  async work(): Promise<void> {
    const { Worker } = await loadBullmq();
    const worker = new Worker(QUEUE_NAME, async (queued) => this.run(Number((queued.data as { deliveryId: number }).deliveryId)), {
      connection: await this.connection(),
      prefix: this.ctx.config.jobs.queuePrefix,
      concurrency: EMBEDDED_CONCURRENCY,
    });
    worker.on('error', (error) => this.ctx.log.warn({ err: error }, 'webhook worker connection problem'));
    this.worker = worker;
  }

  override async close(): Promise<void> {
    await super.close();
    await this.worker?.close();
    if (this.queue) await (await this.queue).close();
    for (const connection of await Promise.all(this.connections.splice(0))) closeRedis(connection);
  }
}

const runners = new WeakMap<Knex, WebhookRunner>();

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
  onDeliveriesCommitted(ctx.db, (deliveries) => {
    if (deliveries === null) void runner.sweep();
    else for (const job of deliveries) void runner.dispatch({ id: job.id, attempts: 0, job }, 0);
  });
  void runner.sweep();
}

/** Hands one delivery to this process's runner at once (a replay, a test event, an endpoint enabled again). */
export async function dispatchDeliveries(ctx: AppContext, deliveries: ReadonlyArray<{ id: number; attempts: number }>): Promise<void> {
  const runner = runners.get(ctx.db);
  for (const delivery of deliveries) await runner?.dispatch(delivery, 0);
}

export async function stopWebhookDelivery(ctx: AppContext): Promise<void> {
  const runner = runners.get(ctx.db);
  runners.delete(ctx.db);
  onDeliveriesCommitted(ctx.db, null);
  await runner?.close();
}
