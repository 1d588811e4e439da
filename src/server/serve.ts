import type { AddressInfo } from 'node:net';
import { checkWebServerSettings, ConfigError, loadConfig } from '@config/env.js';
import { closeWhenIdle } from '@db/knex.js';
import { migrateToLatest, pendingMigrationsProblem } from '@services/schema.js';
import { closeJobDispatcher, jobDispatcher } from '@services/jobs/dispatch.js';
import { startBackupSchedule, startSyncSchedule } from '@services/jobs/schedule.js';
import { backupBeforeMigrating } from '@services/backup/backup.js';
import { startDigestSchedule } from '@services/tasks/digest.js';
import { startWebhookDelivery, stopWebhookDelivery } from '@services/webhooks/runner.js';
import { createApp } from './app.js';
import { createServerContext } from './context.js';
import { exitOnFatalError } from '@context/fatal.js';
import { createLogger } from '@context/logger.js';
import { drainAndClose } from './shutdown.js';

/** A reason not to start that the operator can act on: printed as its one line, without a stack. */
class StartRefused extends Error {}

/** After the last connection closes, how long handlers whose clients left may still use the database. */
const POOL_DRAIN_MS = 10_000;

async function main() {
  const config = loadConfig();
  checkWebServerSettings(config);
  const log = createLogger(config);
  exitOnFatalError(log);
  const ctx = await createServerContext(config, { log });
  // The embedded database needs no set-up step: bring its schema up to date on start (unless migrations run as a
  // release step: MIGRATE_ON_START=false).
  if (config.migrateOnStart) {
    // BACKUP_BEFORE_MIGRATE: an archive of the data as it was, before any pending migration touches it.
    if (config.backup.beforeMigrate) await backupBeforeMigrating(ctx);
    await migrateToLatest(ctx.db, { log: ctx.log });
  } else {
    // Migrations run as a release step: serving requests on an older schema would fail them one by one.
    const problem = await pendingMigrationsProblem(ctx.db);
    if (problem) throw new StartRefused(problem);
  }
  // Embedded mode: this process runs the jobs, and picks up at once those a crash left behind. With Redis the
  // workers run them (and the schedule); this process only enqueues.
  const embedded = !config.jobs.redisUrl;
  if (embedded) jobDispatcher(ctx);
  const schedule = embedded ? await startSyncSchedule(ctx) : null;
  const backupSchedule = embedded ? await startBackupSchedule(ctx) : null;
  const digest = embedded ? startDigestSchedule(ctx) : null;
  // Webhook deliveries: sent from here without Redis; with it, queued here and sent by `pacer worker`.
  await startWebhookDelivery(ctx, 'server');
  const app = createApp(ctx);
  const server = app.listen(config.port, config.host, () => {
    const { port } = server.address() as AddressInfo;
    ctx.log.info({ port, database: config.databaseUrl.split(':')[0] }, `Pacer CRM listening on http://localhost:${port}`);
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.log.info({ signal }, 'shutting down: finishing in-flight requests');
    await schedule?.close();
    await backupSchedule?.close();
    await digest?.close();
    const clean = await drainAndClose(server, ctx.log, async () => {
      // A job in hand is not waited for: its lease runs out and the next start (or another process) runs it again,
      // which imports and syncs allow (their committed batches are skipped as already done).
      await closeJobDispatcher(ctx, { leaveRunning: true });
      await stopWebhookDelivery(ctx);
      if (!(await closeWhenIdle(ctx.db, POOL_DRAIN_MS)))
        ctx.log.warn({ waitedMs: POOL_DRAIN_MS }, 'closed the database pool with queries still running');
    });
    ctx.log.info('stopped');
    process.exit(clean ? 0 : 1);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** Starts the web server; a reason it cannot start is printed and the process exits with 1. */
export function runServer(): void {
  main().catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof ConfigError || error instanceof StartRefused ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
