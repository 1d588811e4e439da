import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { userInfo } from 'node:os';
import type { Config } from '@config/env.js';
import type { Role } from '@shared/roles.js';

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

/**
 * Who is acting: a signed-in user with their role, or a run of the CLI (userId null when no user is named). Whoever
 * has a shell on the server can already do anything there, so the CLI acts as an admin; `osUser` names them in the
 * history.
 */
export interface Actor {
  userId: number | null;
  source: 'web' | 'cli';
  role: Role;
  osUser?: string;
  /** Set when the request came with an API token (userId is then null): the history names the token. */
  token?: { id: number; name: string };
}

function osUserName(): string {
  try {
    return userInfo().username;
  } catch {
    // No passwd entry for this uid (some containers): the history still says it was the CLI.
    return 'unknown';
  }
}

/** The actor of a `pacer` command. */
export const cliActor = (): Actor => ({ userId: null, source: 'cli', role: 'admin', osUser: osUserName() });

/** The actor of a signed-in request (the API's actorOf and the pages' data source both use it). */
export const actorOfUser = (user: { id: number; role: Role }): Actor => ({ userId: user.id, source: 'web', role: user.role });

/** The actor of a request made with an API token: the token's role, no user. */
export const actorOfToken = (token: { id: number; name: string; role: Role }): Actor => ({
  userId: null,
  source: 'web',
  role: token.role,
  token: { id: token.id, name: token.name },
});
