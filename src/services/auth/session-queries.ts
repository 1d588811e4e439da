import type { Knex } from 'knex';
import { decodeRow, decodeRows, encodeTimestamp } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { selectRows } from '@db/statements.js';
import type { UserRow } from '../users/queries.js';

export interface SessionRow {
  id: string;
  userId: number;
  createdAt: string;
  lastSeenAt: string;
  userAgent: string;
  ip: string;
}

/** What a request knows of its signed-in user. */
export type SessionUser = Omit<UserRow, 'passwordHash' | 'sessionVersion'>;

/** A stored preference as its row holds it: the setting's name and its value as JSON text. */
export interface PreferenceRow {
  name: string;
  value: string;
}

export interface SessionWithUser {
  user: SessionUser;
  createdAt: string;
  lastSeenAt: string;
  /** Every preference the user has stored (the theme, each list's view and columns…), read with the session. */
  preferences: PreferenceRow[];
  secondFactorSetupRequired: boolean;
}

export async function insertSession(
  db: Knex,
  session: { id: string; userId: number; at: Date; userAgent: string; ip: string; secondFactorSetupRequired: boolean },
): Promise<void> {
  await db('sessions').insert({
    id: session.id,
    userId: session.userId,
    createdAt: encodeTimestamp(session.at),
    lastSeenAt: encodeTimestamp(session.at),
    userAgent: session.userAgent,
    ip: session.ip,
    secondFactorSetupRequired: session.secondFactorSetupRequired ? 1 : 0,
  });
}

/**
 * The per-request read: the session by its primary key joined to its user by theirs, and the user's preferences by
 * the leading part of theirs (a row each; a user has a dozen at most), in one statement, so a page's first paint
 * has the theme and a list page its view without a query of their own. Only the columns a request uses (never the
 * password hash), written as SQL rather than built per request (docs/decisions/0071).
 */
const SESSION_WITH_USER_SQL = [
  'SELECT u.`id`, u.`email`, u.`firstName`, u.`lastName`, u.`role`, u.`isActive`, u.`createdAt`, u.`lastLogin`,',
  's.`createdAt` AS `sessionCreatedAt`, s.`lastSeenAt` AS `sessionLastSeenAt`, s.`secondFactorSetupRequired`,',
  'p.`name` AS `preferenceName`, p.`value` AS `preferenceValue`',
  'FROM `sessions` s JOIN `users` u ON u.`id` = s.`userId`',
  'LEFT JOIN `user_preferences` p ON p.`userId` = u.`id`',
  'WHERE s.`id` = ?',
].join(' ');

export async function findSessionWithUser(db: Knex, id: string): Promise<SessionWithUser | undefined> {
  const rows = await selectRows(db, SESSION_WITH_USER_SQL, [id]);
  if (rows.length === 0) return undefined;
  const { preferenceName, preferenceValue: _value, ...sessionAndUser } = rows[0]!;
  const { sessionCreatedAt, sessionLastSeenAt, secondFactorSetupRequired, ...user } = decodeRow<
    SessionUser & { sessionCreatedAt: string; sessionLastSeenAt: string; secondFactorSetupRequired: boolean }
  >(columnKinds.session_users, sessionAndUser);
  // No preference stored: the one row's preference columns are NULL.
  const preferences =
    preferenceName === null ? [] : rows.map((row) => ({ name: String(row.preferenceName), value: String(row.preferenceValue) }));
  return { user, createdAt: sessionCreatedAt, lastSeenAt: sessionLastSeenAt, preferences, secondFactorSetupRequired };
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
