import { CronExpressionParser } from 'cron-parser';
import { SYNC_KINDS } from '@shared/record-types.js';
import { cliActor, type AppContext } from '../context.js';
import { SyncBusyError } from '../sync/service.js';
import { closeRedis, loadBullmq, redisConnection } from './dispatch.js';
import { takeScheduleTick } from './queries.js';
import { createJob, dispatchJob } from './service.js';

const SCHEDULE_NAME = 'sync-all';
/** The schedule's own queue: its jobs only start the sync jobs, so they never wait behind a long sync. */
const SCHEDULE_QUEUE = 'schedule';

/** One tick of SYNC_SCHEDULE: an incremental sync job of every kind; a kind already syncing is left to that run. */
async function startScheduledSyncs(ctx: AppContext, tick: Date): Promise<number[]> {
  const started: number[] = [];
  for (const kind of SYNC_KINDS) {
    try {
      const id = await createJob(ctx, cliActor(), 'sync', { kind }, { trigger: 'schedule' });
      await dispatchJob(ctx, { id, type: 'sync' });
      started.push(id);
    } catch (error) {
      if (!(error instanceof SyncBusyError)) throw error;
      ctx.log.info({ kind }, 'scheduled sync skipped: one is already running');
    }
  }
  ctx.log.info({ tick: tick.toISOString(), jobIds: started }, 'scheduled sync all');
  return started;
}

export interface ScheduleHandle {
  close(): Promise<void>;
}

/** A cron schedule: its name (one per tick across processes), its BullMQ queue, and what a tick starts. */
interface CronTask {
  name: string;
  queue: string;
  pattern: string | undefined;
  label: string;
  run(ctx: AppContext, tick: Date): Promise<unknown>;
}

/**
 * Runs a schedule exactly once per tick however many processes run it. With Redis: a BullMQ job scheduler (every
 * worker upserts the same one, and BullMQ makes one job per tick). Embedded: each process times the ticks and the
 * first to record a tick in schedule_ticks runs it.
 */
async function startCronSchedule(ctx: AppContext, task: CronTask): Promise<ScheduleHandle> {
  const { pattern } = task;
  const settings = ctx.config.jobs;
  if (settings.redisUrl) {
    const { Queue, Worker } = await loadBullmq();
    const queueConnection = await redisConnection(settings.redisUrl);
    const queue = new Queue(task.queue, { connection: queueConnection, prefix: settings.queuePrefix });
    queue.on('error', (error) => ctx.log.warn({ err: error }, 'schedule queue connection problem'));
    if (!pattern) {
      // A schedule taken out of the settings stops.
      await queue.removeJobScheduler(task.name);
      await queue.close();
      closeRedis(queueConnection);
      return { close: async () => undefined };
    }
    await queue.upsertJobScheduler(task.name, { pattern }, { name: task.name, opts: { removeOnComplete: 100, removeOnFail: 100 } });
    const workerConnection = await redisConnection(settings.redisUrl);
    // The scheduler names each tick's job after the tick's time (prevMillis), so a tick is one job however many
    // workers upsert the scheduler.
    const worker = new Worker(
      task.queue,
      (queued) => task.run(ctx, new Date(queued.opts.prevMillis ?? queued.timestamp)).then(() => undefined),
      {
        connection: workerConnection,
        prefix: settings.queuePrefix,
      },
    );
    worker.on('error', (error) => ctx.log.warn({ err: error }, 'schedule worker connection problem'));
    ctx.log.info({ pattern }, `${task.label} schedule on`);
    return {
      async close() {
        await worker.close();
        await queue.close();
        closeRedis(workerConnection);
        closeRedis(queueConnection);
      },
    };
  }
  if (!pattern) return { close: async () => undefined };
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  // From the later of now and the last tick: a timer that fires a moment early must not run the same tick again.
  const next = (after: Date) => {
    if (closed) return;
    const now = ctx.clock.now();
    const tick = CronExpressionParser.parse(pattern, { currentDate: now > after ? now : after })
      .next()
      .toDate();
    timer = setTimeout(() => void runTick(tick).finally(() => next(tick)), Math.max(0, tick.getTime() - now.getTime()));
    timer.unref();
  };
  const runTick = async (tick: Date) => {
    try {
      if (await takeScheduleTick(ctx.db, task.name, tick)) await task.run(ctx, tick);
    } catch (error) {
      ctx.log.error({ err: error }, `scheduled ${task.label} could not start`);
    }
  };
  next(ctx.clock.now());
  ctx.log.info({ pattern }, `${task.label} schedule on`);
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}

/** SYNC_SCHEDULE: an incremental sync of every kind on each tick. */
export function startSyncSchedule(ctx: AppContext): Promise<ScheduleHandle> {
  return startCronSchedule(ctx, {
    name: SCHEDULE_NAME,
    queue: SCHEDULE_QUEUE,
    pattern: ctx.config.syncSchedule,
    label: 'sync',
    run: startScheduledSyncs,
  });
}

/** One tick of BACKUP_SCHEDULE: a backup job, run by whoever runs jobs (a worker, or the server itself). */
async function startScheduledBackup(ctx: AppContext, tick: Date): Promise<void> {
  const id = await createJob(ctx, cliActor(), 'backup', {}, { trigger: 'schedule' });
  await dispatchJob(ctx, { id, type: 'backup' });
  ctx.log.info({ tick: tick.toISOString(), jobId: id }, 'scheduled backup');
}

/** BACKUP_SCHEDULE: a backup into BACKUP_DIR on each tick, keeping BACKUP_KEEP archives. */
export function startBackupSchedule(ctx: AppContext): Promise<ScheduleHandle> {
  return startCronSchedule(ctx, {
    name: 'backup',
    queue: 'backup-schedule',
    pattern: ctx.config.backup.schedule,
    label: 'backup',
    run: startScheduledBackup,
  });
}
