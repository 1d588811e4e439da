import type { Knex } from 'knex';
import { decodeRow, encodeTimestamp } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import type { Role } from '@shared/roles.js';

export interface UserRow {
  id: number;
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  role: Role;
  createdAt: string;
  lastLogin: string | null;
  isActive: boolean;
  sessionVersion: number;
}

const decode = (row: Record<string, unknown>) => decodeRow<UserRow>(columnKinds.users, row);

export async function findUserByEmail(db: Knex, email: string): Promise<UserRow | undefined> {
  const row = await db('users').where({ email: email.toLowerCase() }).first();
  return row ? decode(row) : undefined;
}

export async function findUserById(db: Knex, id: number): Promise<UserRow | undefined> {
  const row = await db('users').where({ id }).first();
  return row ? decode(row) : undefined;
}

export async function countUsers(db: Knex): Promise<number> {
  const row = (await db('users').count({ n: '*' }).first()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}

export async function insertUser(
  db: Knex,
  user: { email: string; passwordHash: string; firstName: string; lastName: string; role: Role; createdAt: Date },
): Promise<number> {
  const [id] = await db('users').insert({
    email: user.email.toLowerCase(),
    passwordHash: user.passwordHash,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    createdAt: encodeTimestamp(user.createdAt),
    isActive: 1,
    sessionVersion: 0,
  });
  return Number(id);
}

export async function listUserRows(db: Knex): Promise<UserRow[]> {
  const rows = await db('users').orderBy('id');
  return rows.map(decode);
}

export type UserChanges = Partial<{
  passwordHash: string;
  isActive: boolean;
  lastLogin: Date;
  role: Role;
  firstName: string;
  lastName: string;
}>;

export async function updateUser(db: Knex, id: number, changes: UserChanges): Promise<number> {
  const values: Record<string, unknown> = { ...changes };
  if (changes.isActive !== undefined) values.isActive = changes.isActive ? 1 : 0;
  if (changes.lastLogin !== undefined) values.lastLogin = encodeTimestamp(changes.lastLogin);
  if (Object.keys(values).length === 0) return 0;
  return db('users').where({ id }).update(values);
}

/** Active admins other than `exceptId`, read under a lock so two demotions at once cannot both pass the check. */
export async function countOtherActiveAdmins(db: Knex, exceptId: number): Promise<number> {
  const rows = await db('users').where({ role: 'admin', isActive: 1 }).whereNot({ id: exceptId }).select('id').forUpdate();
  return rows.length;
}

/** Ends a user's one-time set-password links (a deactivated user's link must not come back with reactivation). */
export async function deleteSetPasswordLinksOf(db: Knex, userId: number): Promise<void> {
  await db('set_password_links').where({ userId }).delete();
}
