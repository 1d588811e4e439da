import { createHash, randomBytes } from 'node:crypto';
import Bowser from 'bowser';
import type { Knex } from 'knex';
import type { SessionView } from '@shared/schemas/auth.js';
import type { ThemeChoice } from '@shared/theme.js';
import type { AppContext } from '../context.js';
import { notFound } from '../errors.js';
import { storedPreference } from '../preferences/service.js';
import { secondFactorSetupRequired } from './security-settings.js';
import {
  deleteSession,
  deleteStaleSessions,
  deleteUserSessions,
  findSessionWithUser,
  type PreferenceRow,
  insertSession,
  listSessionRows,
  touchSession,
  type SessionUser,
} from './session-queries.js';

/**
 * Sessions (docs/decisions/0002-session-revocation.md): a sign-in makes a row; the signed cookie carries a random
 * token and the row's id is the token's SHA-256, so neither a copy of the table nor a log of ids signs anyone in.
 * Each request reads the row joined to its user by primary keys, once, and touches lastSeenAt at most once a minute.
 */

/** Refresh the idle timestamp at most this often, so most requests write nothing. */
const LAST_SEEN_GRANULARITY_MS = 60_000;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const sessionIdOf = (token: string) => createHash('sha256').update(token).digest('hex');

export interface SessionClient {
  ip: string;
  userAgent: string;
}

/** Starts a session for a user and answers the token for the cookie (never stored). */
export async function createSession(ctx: AppContext, userId: number, client: SessionClient): Promise<string> {
  const { db } = ctx;
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await insertSession(db, {
    id: sessionIdOf(token),
    userId,
    at: now,
    userAgent: client.userAgent.slice(0, 500),
    ip: client.ip.slice(0, 64),
    secondFactorSetupRequired: await secondFactorSetupRequired(db, userId),
  });
  // Sign-ins are rare next to requests: a good moment to drop sessions nobody can use any more.
  await deleteStaleSessions(db, new Date(now.getTime() - ctx.config.sessionMaxMs), new Date(now.getTime() - ctx.config.sessionIdleMs));
  return token;
}

export interface ResumedSession {
  user: SessionUser;
  sessionId: string;
  /** The theme the user chose (read with the session), or undefined when they never chose one. */
  theme: ThemeChoice | undefined;
  /** Every preference the user has stored, as read with the session. */
  preferences: PreferenceRow[];
  /** The admin requires a second factor and this user has none: the session may only set one up. */
  secondFactorSetupRequired: boolean;
}

/** The signed-in user of a cookie's token, when the session exists, is within its limits and the user is active. */
export async function resumeSession(ctx: AppContext, token: unknown): Promise<ResumedSession | undefined> {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return undefined;
  const sessionId = sessionIdOf(token);
  const found = await findSessionWithUser(ctx.db, sessionId);
  if (!found || !found.user.isActive) return undefined;
  const now = ctx.clock.now();
  const age = now.getTime() - Date.parse(found.createdAt);
  const idle = now.getTime() - Date.parse(found.lastSeenAt);
  if (age > ctx.config.sessionMaxMs || idle > ctx.config.sessionIdleMs) {
    await deleteSession(ctx.db, { id: sessionId });
    return undefined;
  }
  if (idle >= LAST_SEEN_GRANULARITY_MS) await touchSession(ctx.db, sessionId, now);
  const themeRow = found.preferences.find((row) => row.name === 'theme');
  const theme = themeRow ? storedPreference('theme', themeRow.value) : undefined;
  return { user: found.user, sessionId, theme, preferences: found.preferences, secondFactorSetupRequired: found.secondFactorSetupRequired };
}

/** Logout: ends this session only; the same person stays signed in on their other devices. */
export async function endSession(ctx: AppContext, sessionId: string): Promise<void> {
  await deleteSession(ctx.db, { id: sessionId });
}

/** Ends every session of a user but `keep` (or all of them): after a password change, a deactivation, a role change. */
export async function endSessionsOf(db: Knex, userId: number, keep?: string): Promise<number> {
  return deleteUserSessions(db, userId, keep);
}

export function describeClient(userAgent: string): { browser: string; os: string } {
  if (!userAgent) return { browser: 'Unknown browser', os: 'Unknown system' };
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, parsed.browser.version?.split('.')[0]].filter(Boolean).join(' ');
  const os = [parsed.os.name, parsed.os.versionName ?? parsed.os.version].filter(Boolean).join(' ');
  return { browser: browser || 'Unknown browser', os: os || 'Unknown system' };
}

export async function listMySessions(ctx: AppContext, userId: number, currentSessionId: string): Promise<SessionView[]> {
  return (await listSessionRows(ctx.db, userId)).map((row) => ({
    id: row.id,
    ...describeClient(row.userAgent),
    ip: row.ip,
    signedInAt: row.createdAt,
    lastSeenAt: row.lastSeenAt,
    current: row.id === currentSessionId,
  }));
}

/** "Sign out" on one of my sessions; someone else's session is not found, as if it did not exist. */
export async function endMySession(ctx: AppContext, userId: number, sessionId: string): Promise<void> {
  if (!/^[0-9a-f]{64}$/.test(sessionId) || (await deleteSession(ctx.db, { id: sessionId, userId })) === 0)
    throw notFound('Session not found');
}

/** "Sign out of all other sessions": answers how many ended. */
export async function endOtherSessions(ctx: AppContext, userId: number, currentSessionId: string): Promise<number> {
  return endSessionsOf(ctx.db, userId, currentSessionId);
}
