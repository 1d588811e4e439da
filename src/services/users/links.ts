import { createHash, randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';
import * as z from 'zod';
import { decodeTimestamp, encodeTimestamp } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import { NewPasswordSchema, NewUserSchema, type PublicUser } from '@shared/schemas/auth.js';
import { setPasswordPath } from '@shared/set-password-link.js';
import { endSessionsOf, type SessionClient } from '../auth/sessions.js';
import { CLI_CLIENT, recordSignInEvent } from '../auth/sign-in-events.js';
import type { Actor, AppContext } from '../context.js';
import { AppError, conflict, notFound } from '../errors.js';
import { mailConfigured, sendMail } from '../mail/mailer.js';
import { historyActorOf, recordHistory } from '../history/service.js';
import { requireRole } from '../roles.js';
import { parseInput } from '../validate.js';
import { findUserByEmail, findUserById, insertUser, updateUser } from './queries.js';
import { presentUser } from './service.js';

/** A set-password link is good for 72 hours, once, and only until a newer one is made. */
const LINK_TTL_MS = 72 * 3_600_000;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export interface SetPasswordLink {
  url: string;
  expiresAt: string;
  /** Whether the link was also emailed to the user (SMTP_URL and MAIL_FROM set, and the server took it). */
  emailed: boolean;
}

const GONE = 'This link has expired or has already been used. Ask an admin for a new one.';

/**
 * Makes a user's one-time link, replacing any earlier one, and emails it when mail is set up. `origin` is the
 * site's address the admin is using (checked against the Origin header by the origin check).
 */
export async function issueLink(ctx: AppContext, actor: Actor, user: PublicUser, origin: string): Promise<SetPasswordLink> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + LINK_TTL_MS);
  await withTransaction(ctx, async (trx) => {
    await trx('set_password_links').where({ userId: user.id }).delete();
    await trx('set_password_links').insert({
      userId: user.id,
      tokenHash: tokenHash(token),
      createdBy: actor.userId,
      createdAt: encodeTimestamp(now),
      expiresAt: encodeTimestamp(expiresAt),
    });
  });
  const url = `${origin}${setPasswordPath(token)}`;
  let emailed = false;
  if (mailConfigured(ctx)) {
    try {
      await sendMail(ctx, {
        to: user.email,
        subject: 'Set your Pacer CRM password',
        text: [
          `Hello ${user.firstName},`,
          '',
          'Open this link to set your password for Pacer CRM:',
          url,
          '',
          `The link works once, until ${expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
        ].join('\n'),
      });
      emailed = true;
    } catch (error) {
      // The admin still has the link to copy and send; the answer says it was not emailed.
      ctx.log.warn({ err: error, userId: user.id }, 'could not email the set-password link');
    }
  }
  ctx.log.info({ event: 'set_password_link', userId: user.id, by: actor.userId, emailed }, 'set-password link made');
  return { url, expiresAt: expiresAt.toISOString(), emailed };
}

/** "Reset password" on /settings/users: a new link (the old one stops working). */
export async function createResetLink(ctx: AppContext, actor: Actor, userId: number, origin: string): Promise<SetPasswordLink> {
  requireRole(actor, 'admin');
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound('User not found');
  return issueLink(ctx, actor, presentUser(user), origin);
}

export const AddUserSchema = NewUserSchema.omit({ password: true });

/** "Add user": the account has no usable password until its owner opens the link. */
export async function addUser(
  ctx: AppContext,
  actor: Actor,
  input: unknown,
  origin: string,
): Promise<{ user: PublicUser; link: SetPasswordLink }> {
  requireRole(actor, 'admin');
  const data = parseInput(AddUserSchema, input);
  const taken = () => conflict(`A user with the email ${data.email.toLowerCase()} already exists`);
  if (await findUserByEmail(ctx.db, data.email)) throw taken();
  // A hash of random bytes nobody knows: no password signs in until the link sets one.
  const passwordHash = await bcrypt.hash(randomBytes(32).toString('base64url'), ctx.config.bcryptCost);
  const id = await insertUser(ctx.db, { ...data, passwordHash, createdAt: ctx.clock.now() }).catch((error: unknown) => {
    const code = (error as { code?: string }).code;
    throw code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' ? taken() : error;
  });
  const user = presentUser((await findUserById(ctx.db, id))!);
  await withTransaction(ctx, async (trx) =>
    recordHistory(trx, ctx, await historyActorOf(trx, actor), [{ entityType: 'user', entityId: id, action: 'create', changes: user }]),
  );
  return { user, link: await issueLink(ctx, actor, user, origin) };
}

async function liveLink(ctx: AppContext, token: unknown) {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) throw new AppError(410, 'link_gone', GONE);
  const row = (await ctx
    .db('set_password_links')
    .where({ tokenHash: tokenHash(token) })
    .first()) as { id: number; userId: number; expiresAt: unknown } | undefined;
  if (!row || Date.parse(decodeTimestamp(row.expiresAt)!) <= ctx.clock.now().getTime()) throw new AppError(410, 'link_gone', GONE);
  const user = await findUserById(ctx.db, row.userId);
  if (!user || !user.isActive) throw new AppError(410, 'link_gone', GONE);
  return { row, user };
}

/** What the "Set your password" page shows before the form is sent. */
export async function describeSetPasswordLink(ctx: AppContext, token: unknown): Promise<{ email: string; firstName: string }> {
  const { user } = await liveLink(ctx, token);
  return { email: user.email, firstName: user.firstName };
}

export const SetPasswordSchema = z.object({ password: NewPasswordSchema }).strict();

/**
 * Sets the password through a link and uses the link up (deleted in the same transaction, so two tabs cannot both
 * use it). Every session the user had ends; the caller signs them in afresh.
 */
export async function setPasswordWithLink(
  ctx: AppContext,
  token: unknown,
  input: unknown,
  client: SessionClient = CLI_CLIENT,
): Promise<PublicUser> {
  const { password } = parseInput(SetPasswordSchema, input);
  const { row, user } = await liveLink(ctx, token);
  const passwordHash = await bcrypt.hash(password, ctx.config.bcryptCost);
  await withTransaction(ctx, async (trx) => {
    if ((await trx('set_password_links').where({ id: row.id }).delete()) === 0) throw new AppError(410, 'link_gone', GONE);
    // Setting the password signs them in (the caller starts a session): an invited user is no longer "Invited".
    await updateUser(trx, user.id, { passwordHash, lastLogin: ctx.clock.now() });
    await endSessionsOf(trx, user.id);
    await recordSignInEvent(trx, ctx, client, { kind: 'password_reset', succeeded: true, userId: user.id, detail: 'link' });
  });
  ctx.log.info({ event: 'password_set_by_link', userId: user.id }, 'password set through a one-time link');
  return presentUser(user);
}
