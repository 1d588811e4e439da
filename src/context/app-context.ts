import type { Config } from '@config/env.js';
import { createDatabase } from '@db/knex.js';
import { systemClock, type AppContext } from '@services/context.js';
import { createLogger } from './logger.js';

/**
 * The process-wide context every caller of the services builds the same way: the web server (which adds its
 * web-only parts in src/server/context.ts), the CLI and the tests. It lives outside src/server so the CLI never
 * imports the web server.
 */
export async function createAppContext(config: Config, overrides: Partial<AppContext> = {}): Promise<AppContext> {
  const log = overrides.log ?? createLogger(config);
  const db = overrides.db ?? createDatabase({ url: config.databaseUrl, acquireTimeoutMs: config.dbAcquireTimeoutMs, log });
  return { db, log, config, clock: overrides.clock ?? systemClock };
}
