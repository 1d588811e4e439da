import type { Config } from '../config/env.js';
import { assertDatabaseSafety, createDatabase } from '../db/knex.js';
import { LoginThrottle } from '../services/auth/login-throttle.js';
import { systemClock, type AppContext } from '../services/context.js';
import { readAssetManifest } from '../ssr/assets.js';
import { createLogger } from './logger.js';
import type { ServerContext } from './types.js';

/** The process-wide context shared by the web server and the CLI (the CLI ignores the web-only parts). */
export async function createAppContext(config: Config, overrides: Partial<AppContext> = {}): Promise<AppContext> {
  const log = overrides.log ?? createLogger(config);
  const db = overrides.db ?? createDatabase({ url: config.databaseUrl, acquireTimeoutMs: config.dbAcquireTimeoutMs, log });
  return { db, log, config, clock: overrides.clock ?? systemClock };
}

export async function createServerContext(config: Config, overrides: Partial<ServerContext> = {}): Promise<ServerContext> {
  const base = await createAppContext(config, overrides);
  await assertDatabaseSafety(base.db);
  return { ...base, throttle: overrides.throttle ?? new LoginThrottle(), assets: overrides.assets ?? readAssetManifest() };
}
