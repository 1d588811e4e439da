import type { Config } from '@config/env.js';
import { createAppContext } from '@context/app-context.js';
import { assertDatabaseSafety } from '@db/knex.js';
import { LoginThrottle } from '@services/auth/login-throttle.js';
import { readAssetManifest } from '@ssr/assets.js';
import type { ServerContext } from './types.js';

/** The web server's context: the shared one, checked against the database, plus sign-in throttling and the assets. */
export async function createServerContext(config: Config, overrides: Partial<ServerContext> = {}): Promise<ServerContext> {
  const base = await createAppContext(config, overrides);
  await assertDatabaseSafety(base.db);
  return { ...base, throttle: overrides.throttle ?? new LoginThrottle(), assets: overrides.assets ?? readAssetManifest() };
}
