import bcrypt from 'bcrypt';
import { withTransaction } from '@db/transaction.js';
import type { PublicUser } from '@shared/schemas/auth.js';
import { NewPasswordSchema, NewUserSchema, type NewUserInput } from '@shared/schemas/auth.js';
import type { AppContext } from '../context.js';
import { conflict, forbidden, notFound } from '../errors.js';
import { parseInput } from '../validate.js';
import { countUsers, findUserByEmail, findUserById, insertUser, listUserRows, updateUser, type UserRow } from './queries.js';

export function presentUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    isActive: row.isActive,
    createdAt: row.createdAt,
    lastLogin: row.lastLogin,
  };
}

function hashPassword(ctx: AppContext, password: string): Promise<string> {
  return bcrypt.hash(password, ctx.config.bcryptCost);
}

export async function needsFirstUser(ctx: AppContext): Promise<boolean> {
  return (await countUsers(ctx.db)) === 0;
}

export async function createUser(ctx: AppContext, input: NewUserInput): Promise<PublicUser> {
  const data = parseInput(NewUserSchema, input);
  if (await findUserByEmail(ctx.db, data.email)) throw conflict(`A user with the email ${data.email.toLowerCase()} already exists`);
  const passwordHash = await hashPassword(ctx, data.password);
  try {
    const id = await insertUser(ctx.db, { ...data, passwordHash, createdAt: ctx.clock.now() });
    return presentUser((await findUserById(ctx.db, id))!);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`A user with the email ${data.email.toLowerCase()} already exists`);
    throw error;
  }
}

/**
 * First-run set-up: only while no user exists. The count and the insert share a transaction; on MySQL a
 * concurrent second set-up either sees the first user or hits the unique email, and on SQLite writers serialise.
 */
export async function createFirstAdmin(ctx: AppContext, input: NewUserInput): Promise<PublicUser> {
  const data = parseInput(NewUserSchema, input);
  const passwordHash = await hashPassword(ctx, data.password);
  const setUpAlready = () => forbidden('Set-up is already complete: sign in instead');
  const id = await withTransaction(ctx, async (trx) => {
    if ((await countUsers(trx)) > 0) throw setUpAlready();
    return insertUser(trx, { ...data, passwordHash, createdAt: ctx.clock.now() });
  }).catch((error: unknown) => {
    // A simultaneous set-up with the same email got there first.
    throw isUniqueViolation(error) ? setUpAlready() : error;
  });
  return presentUser((await findUserById(ctx.db, id))!);
}

export async function listUsers(ctx: AppContext): Promise<PublicUser[]> {
  return (await listUserRows(ctx.db)).map(presentUser);
}

async function requireUserByEmail(ctx: AppContext, email: string): Promise<UserRow> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user) throw notFound(`No user with the email ${email}`);
  return user;
}

/** Changing a password signs the user out everywhere. */
export async function setPassword(ctx: AppContext, email: string, password: string): Promise<void> {
  const user = await requireUserByEmail(ctx, email);
  const valid = parseInput(NewPasswordSchema, password);
  await updateUser(ctx.db, user.id, { passwordHash: await hashPassword(ctx, valid) }, { bumpSessionVersion: true });
}

export async function setActive(ctx: AppContext, email: string, isActive: boolean): Promise<void> {
  const user = await requireUserByEmail(ctx, email);
  await updateUser(ctx.db, user.id, { isActive }, { bumpSessionVersion: !isActive });
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
