import bcrypt from 'bcrypt';
import * as z from 'zod';
import { withTransaction } from '@db/transaction.js';
import { ROLES, type Role } from '@shared/roles.js';
import type { PublicUser } from '@shared/schemas/auth.js';
import {
  NameSchema,
  NewPasswordSchema,
  NewUserSchema,
  PasswordChangeSchema,
  SetupSchema,
  type NewUserInput,
} from '@shared/schemas/auth.js';
import { text } from '@shared/schemas/text.js';
import type { LoginThrottle } from '../auth/login-throttle.js';
import { endSessionsOf, type SessionClient } from '../auth/sessions.js';
import { CLI_CLIENT, recordSignInEvent } from '../auth/sign-in-events.js';
import { cliActor, type Actor, type AppContext } from '../context.js';
import { conflict, forbidden, notFound, tooManyRequests, validationFailed } from '../errors.js';
import { changedFields, historyActorOf, recordHistory } from '../history/service.js';
import { requireRole } from '../roles.js';
import { parseInput } from '../validate.js';
import {
  countOtherActiveAdmins,
  countUsers,
  deleteSetPasswordLinksOf,
  findUserByEmail,
  findUserById,
  insertUser,
  listUserRows,
  updateUser,
  type UserChanges,
  type UserRow,
} from './queries.js';

/** What the browser sees of a user (a row read with a session lacks the hash and the session version too). */
export function presentUser(row: Omit<UserRow, 'passwordHash' | 'sessionVersion'>): PublicUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    role: row.role,
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

const alreadyExists = (email: string) => conflict(`A user with the email ${email.toLowerCase()} already exists`);

/** The CLI's account: names may be left empty (the user fills them in on their account page). */
const CreateUserSchema = NewUserSchema.extend({
  firstName: text().trim().max(100).default(''),
  lastName: text().trim().max(100).default(''),
  // No default here: createUser decides (see firstAdmin).
  role: z.enum(ROLES, { error: `Role must be one of: ${ROLES.join(', ')}` }).optional(),
});

/**
 * Creates an account with a password (the CLI, which runs with the server's own rights, and tests). Like "Add
 * user" it leaves a history entry, in the same transaction as the row, naming who ran it. Without a role it is
 * staff; with `firstAdmin` (`pacer users create`) it is an admin while no active admin exists, so an install's
 * first account can run it.
 */
export async function createUser(
  ctx: AppContext,
  input: Omit<NewUserInput, 'firstName' | 'lastName'> & { firstName?: string; lastName?: string },
  actor: Actor = cliActor(),
  options: { firstAdmin?: boolean } = {},
): Promise<PublicUser> {
  const data = parseInput(CreateUserSchema, input);
  if (await findUserByEmail(ctx.db, data.email)) throw alreadyExists(data.email);
  const passwordHash = await hashPassword(ctx, data.password);
  try {
    return await withTransaction(ctx, async (trx) => {
      // Decided in the transaction that inserts, so two first creates at once make one admin, not none or two.
      const role = data.role ?? (options.firstAdmin && (await countOtherActiveAdmins(trx, 0)) === 0 ? 'admin' : 'staff');
      const id = await insertUser(trx, { ...data, role, passwordHash, createdAt: ctx.clock.now() });
      const user = presentUser((await findUserById(trx, id))!);
      await recordHistory(trx, ctx, await historyActorOf(trx, actor), [
        { entityType: 'user', entityId: id, action: 'create', changes: user },
      ]);
      return user;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyExists(data.email);
    throw error;
  }
}

/**
 * First-run set-up: only while no user exists, and the account is an admin. The count and the insert share a
 * transaction; on MySQL a concurrent second set-up either sees the first user or hits the unique email, and on
 * SQLite writers serialise.
 */
export async function createFirstAdmin(
  ctx: AppContext,
  throttle: LoginThrottle,
  input: unknown,
  client: { ip: string },
): Promise<PublicUser> {
  const setUpAlready = () => forbidden('Set-up is already complete: sign in instead');
  // Refused before any hashing: once set-up is done, an anonymous caller costs one count.
  if (!(await needsFirstUser(ctx))) throw setUpAlready();
  const data = parseInput(SetupSchema, input);
  const wait = await throttle.reserveSetup(ctx.db, client.ip, ctx.clock.now().getTime());
  if (wait > 0) throw tooManyRequests('Too many set-up attempts. Try again later.', wait);
  const passwordHash = await hashPassword(ctx, data.password);
  const id = await withTransaction(ctx, async (trx) => {
    if ((await countUsers(trx)) > 0) throw setUpAlready();
    return insertUser(trx, { ...data, role: 'admin', passwordHash, createdAt: ctx.clock.now() });
  }).catch((error: unknown) => {
    // A simultaneous set-up with the same email got there first.
    throw isUniqueViolation(error) ? setUpAlready() : error;
  });
  return presentUser((await findUserById(ctx.db, id))!);
}

export async function listUsers(ctx: AppContext, actor: Actor): Promise<PublicUser[]> {
  requireRole(actor, 'admin');
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
  const passwordHash = await hashPassword(ctx, valid);
  await withTransaction(ctx, async (trx) => {
    await updateUser(trx, user.id, { passwordHash });
    await endSessionsOf(trx, user.id);
  });
}

export const UserUpdateSchema = z
  .object({
    role: z.enum(ROLES, { error: `Role must be one of: ${ROLES.join(', ')}` }).optional(),
    isActive: z.boolean({ error: 'isActive must be true or false' }).optional(),
    firstName: text().trim().min(1, 'First name is required').max(100).optional(),
    lastName: text().trim().min(1, 'Last name is required').max(100).optional(),
  })
  .strict();

const LAST_ADMIN = 'This is the last active admin: make another user an admin first, so someone can still manage users';

/**
 * An admin changes a user's role, active flag or names. The last active admin can neither be demoted nor
 * deactivated (409). A role change or a deactivation ends every session of that user, so the next request they
 * make runs under what they are now. A deactivation also ends their set-password links.
 */
export async function updateUserAccount(ctx: AppContext, actor: Actor, id: number, input: unknown): Promise<PublicUser> {
  requireRole(actor, 'admin');
  const changes: UserChanges = parseInput(UserUpdateSchema, input);
  await withTransaction(ctx, async (trx) => {
    const user = await findUserById(trx, id);
    if (!user) throw notFound('User not found');
    const losesAdmin = user.role === 'admin' && user.isActive && ((changes.role && changes.role !== 'admin') || changes.isActive === false);
    if (losesAdmin && (await countOtherActiveAdmins(trx, id)) === 0) throw conflict(LAST_ADMIN);
    await updateUser(trx, id, changes);
    const roleChanged = changes.role !== undefined && changes.role !== user.role;
    if (roleChanged || changes.isActive === false) await endSessionsOf(trx, id);
    if (changes.isActive === false) await deleteSetPasswordLinksOf(trx, id);
    const { lastLogin: _before, ...was } = presentUser(user);
    const { lastLogin: _after, ...now } = presentUser((await findUserById(trx, id))!);
    const changed = changedFields(was, now);
    if (Object.keys(changed).length)
      await recordHistory(trx, ctx, await historyActorOf(trx, actor), [
        { entityType: 'user', entityId: id, action: 'update', changes: changed },
      ]);
  });
  ctx.log.info({ event: 'user_updated', userId: id, by: actor.userId, fields: Object.keys(changes) }, 'user updated');
  return presentUser((await findUserById(ctx.db, id))!);
}

/** `pacer users set-role`, `activate`, `deactivate`: the same rules by email. */
export async function updateUserByEmail(ctx: AppContext, actor: Actor, email: string, changes: { role?: Role; isActive?: boolean }) {
  const user = await requireUserByEmail(ctx, email);
  return updateUserAccount(ctx, actor, user.id, changes);
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * /settings/account: anyone changes their own password, proving the current one. Every other session of theirs
 * ends (a stolen cookie stops working); this one stays signed in.
 */
export async function changeMyPassword(
  ctx: AppContext,
  throttle: LoginThrottle,
  userId: number,
  currentSessionId: string,
  input: unknown,
  client: SessionClient = CLI_CLIENT,
): Promise<void> {
  const { currentPassword, newPassword } = parseInput(PasswordChangeSchema, input);
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound('User not found');
  // The same limit as sign-in, per account: a stolen session must not become a way to guess the password.
  const wait = await throttle.reservePasswordCheck(ctx.db, userId, ctx.clock.now().getTime());
  if (wait > 0) throw tooManyRequests('Too many wrong current passwords. Try again later.', wait);
  if (!(await bcrypt.compare(currentPassword, user.passwordHash)))
    throw validationFailed('The current password is not right', [
      { path: 'currentPassword', message: 'The current password is not right' },
    ]);
  await throttle.releasePasswordCheck(ctx.db, userId);
  const passwordHash = await hashPassword(ctx, newPassword);
  await withTransaction(ctx, async (trx) => {
    await updateUser(trx, userId, { passwordHash });
    await endSessionsOf(trx, userId, currentSessionId);
    await recordSignInEvent(trx, ctx, client, { kind: 'password_changed', succeeded: true, userId });
  });
  ctx.log.info({ event: 'password_changed', userId }, 'password changed; other sessions ended');
}

/** /settings/account: anyone changes their own name. */
export async function changeMyName(ctx: AppContext, userId: number, input: unknown): Promise<PublicUser> {
  const names = parseInput(NameSchema, input);
  await updateUser(ctx.db, userId, names);
  return presentUser((await findUserById(ctx.db, userId))!);
}
