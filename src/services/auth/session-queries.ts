import type { Knex } from 'knex';
import { decodeRow, decodeRows, encodeTimestamp } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import type { UserRow } from '../users/queries.js';

export interface SessionRow {
  id: string;
  userId: number;
  createdAt: string;
  lastSeenAt: string;
  userAgent: string;
  ip: string;
}

export interface SessionWithUser {
  user: UserRow;
  createdAt: string;
  lastSeenAt: string;
  /** The user's stored theme preference (JSON text), or null when they never chose one. */
  themePreference: string | null;
}

export async function insertSession(
  db: Knex,
  session: { id: string; userId: number; at: Date; userAgent: string; ip: string },
): Promise<void> {
  await db('sessions').insert({
    id: session.id,
    userId: session.userId,
    createdAt: encodeTimestamp(session.at),
    lastSeenAt: encodeTimestamp(session.at),
    userAgent: session.userAgent,
    ip: session.ip,
  });
}

/** The per-request read: the session by its primary key joined to its user by theirs, in one query. */
export async function findSessionWithUser(db: Knex, id: string): Promise<SessionWithUser | undefined> {
  // The theme comes along by its primary key, so every page's first paint has it without a query of its own.
  const row = (await db('sessions as s')
    .join('users as u', 'u.id', 's.userId')
    .leftJoin('user_preferences as p', function themePreference() {
      this.on('p.userId', '=', 'u.id').andOn('p.name', '=', db.raw('?', ['theme']));
    })
    .where('s.id', id)
    .select('u.*', 's.createdAt as sessionCreatedAt', 's.lastSeenAt as sessionLastSeenAt', 'p.value as themePreference')
    .first()) as Record<string, unknown> | undefined;
  if (!row) return undefined;
  const { sessionCreatedAt, sessionLastSeenAt, themePreference, ...user } = decodeRow<
    UserRow & { sessionCreatedAt: string; sessionLastSeenAt: string; themePreference: string | null }
  >(columnKinds.session_users, row);
  return { user, createdAt: sessionCreatedAt, lastSeenAt: sessionLastSeenAt, themePreference };
}

export async function touchSession(db: Knex, id: string, at: Date): Promise<void> {
  await db('sessions')
    .where({ id })
    .update({ lastSeenAt: encodeTimestamp(at) });
}

export async function listSessionRows(db: Knex, userId: number): Promise<SessionRow[]> {
  return decodeRows<SessionRow>(columnKinds.sessions, await db('sessions').where({ userId }).orderBy('lastSeenAt', 'desc'));
}

export async function deleteSession(db: Knex, where: { id: string; userId?: number }): Promise<number> {
  return db('sessions').where(where).delete();
}

/** Ends every session of a user, or every one but `except`. */
export async function deleteUserSessions(db: Knex, userId: number, except?: string): Promise<number> {
  const query = db('sessions').where({ userId });
  if (except) query.whereNot({ id: except });
  return query.delete();
}

/** Sessions that can no longer be used (past the absolute limit, or idle too long): removed now and then. */
export async function deleteStaleSessions(db: Knex, createdBefore: Date, seenBefore: Date): Promise<number> {
  return db('sessions')
    .where('createdAt', '<', encodeTimestamp(createdBefore))
    .orWhere('lastSeenAt', '<', encodeTimestamp(seenBefore))
    .delete();
}
