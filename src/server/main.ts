import { ConfigError, loadConfig } from '../config/env.js';
import { migrateToLatest } from '../db/migrate.js';
import { createApp } from './app.js';
import { createServerContext } from './context.js';

async function main() {
  const config = loadConfig();
  const ctx = await createServerContext(config);
  // The embedded database needs no set-up step: bring its schema up to date on start.
  await migrateToLatest(ctx.db);
  const app = createApp(ctx);
  const server = app.listen(config.port, config.host, () => {
    ctx.log.info({ port: config.port, database: config.databaseUrl.split(':')[0] }, `Pacer CRM listening on http://localhost:${config.port}`);
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.log.info({ signal }, 'shutting down: finishing in-flight requests');
    server.close(async () => {
      await ctx.db.destroy();
      ctx.log.info('stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => {
      ctx.log.error('in-flight requests did not finish in 25 s; exiting');
      process.exit(1);
    }, 25_000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('unhandledRejection', (reason) => {
    ctx.log.fatal({ err: reason }, 'unhandled rejection');
    process.exit(1);
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
