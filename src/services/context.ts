import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from '@config/env.js';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Everything a service needs, built once per process (server or CLI) and passed explicitly. */
export interface AppContext {
  db: Knex;
  log: Logger;
  config: Config;
  clock: Clock;
}

/** Who is acting: a signed-in user, or an admin/cron run of the CLI (userId null when no user is named). */
export interface Actor {
  userId: number | null;
  source: 'web' | 'cli';
}
