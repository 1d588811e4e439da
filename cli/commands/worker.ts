import type { Command } from 'commander';
import { loadConfig } from '@config/env.js';
import { createAppContext } from '@context/app-context.js';
import { createLogger } from '@context/logger.js';
import { startMetricsServer } from '@context/metrics.js';
import { startWorkers } from '@services/jobs/dispatch.js';
import { startBackupSchedule, startSyncSchedule } from '@services/jobs/schedule.js';
import { startDigestSchedule } from '@services/tasks/digest.js';
import { pendingMigrationsProblem } from '@services/schema.js';
import { startWebhookDelivery, stopWebhookDelivery } from '@services/webhooks/runner.js';
import type { CommandRegistrar } from '../program.js';
import { CliExit, EXIT, type CliIO } from '../runtime.js';

/** Resolves on the first SIGTERM or SIGINT (a deploy stopping the process, or Ctrl-C). */
const stopSignal = () =>
  new Promise<string>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });

/**
 * `pacer worker`: runs the jobs the web processes queue in Redis (imports, syncs, newsletter pushes, webhook deliveries), as many
 * processes as wanted, each with WORKER_CONCURRENCY_<TYPE> jobs of a type at once; runs SYNC_SCHEDULE's syncs.
 * A stop signal lets the jobs in hand finish; a killed worker's job is taken over by another after its lease.
 */
export const registerWorkerCommands: CommandRegistrar = (program: Command, io: CliIO) => {
  program
    .command('worker')
    .description('Run background jobs (imports, syncs, newsletter pushes) from the Redis queue; needs REDIS_URL')
    .action(async () => {
      const config = loadConfig(io.env, { sessions: false });
      if (!config.jobs.redisUrl)
        throw new CliExit(EXIT.usage, 'pacer worker needs REDIS_URL (e.g. redis://127.0.0.1:6379); without it the server runs jobs itself');
      const { token, workerPort } = config.metrics;
      if (workerPort !== undefined && token === undefined)
        throw new CliExit(EXIT.usage, 'WORKER_METRICS_PORT needs METRICS_TOKEN (the token a scraper must send)');
      const ctx = await createAppContext(config, { log: createLogger(config) });
      // A worker never migrates: jobs on an older schema would fail one by one.
      const problem = await pendingMigrationsProblem(ctx.db);
      if (problem) {
        await ctx.db.destroy();
        throw new CliExit(EXIT.failure, problem);
      }
      // Listened for from here: a stop asked for while the worker starts still lets it close what it opened.
      const stopping = stopSignal();
      const metrics =
        workerPort !== undefined && token !== undefined
          ? await startMetricsServer({ token, port: workerPort, host: config.host }, ctx.db, ctx.log)
          : null;
      const workers = await startWorkers(ctx);
      const schedule = await startSyncSchedule(ctx);
      const backupSchedule = await startBackupSchedule(ctx);
      const digest = startDigestSchedule(ctx);
      await startWebhookDelivery(ctx, 'worker');
      const signal = await stopping;
      ctx.log.info({ signal }, 'worker stopping: finishing the jobs in hand');
      await schedule.close();
      await backupSchedule.close();
      await digest.close();
      await workers.close();
      await stopWebhookDelivery(ctx);
      await metrics?.close();
      await ctx.db.destroy();
      ctx.log.info('worker stopped');
    });
};
