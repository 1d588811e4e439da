import { createHash, randomInt } from 'node:crypto';
import bcrypt from 'bcrypt';
import type { Knex } from 'knex';
import { renderSVG } from 'uqr';
import { decodeRow, encodeTimestamp } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { withTransaction } from '@db/transaction.js';
import { DisableTwoFactorSchema, SecondFactorCodeSchema, type TotpEnrolment, type TwoFactorStatus } from '@shared/schemas/auth.js';
import type { Actor, AppContext } from '../context.js';
import { AppError, conflict, notFound, tooManyRequests, validationFailed } from '../errors.js';
import { requireRole } from '../roles.js';
import { findUserByEmail, findUserById } from '../users/queries.js';
import { parseInput } from '../validate.js';
import type { LoginThrottle } from './login-throttle.js';
import { hasSecondFactor, requiresTwoFactor } from './security-settings.js';
import type { SessionClient } from './sessions.js';
import { CLI_CLIENT, recordSignInEvent } from './sign-in-events.js';
import { matchTotp, newTotpSecret, otpauthUrl } from './totp.js';

/**
 * Second factors (docs/decisions/0102). A user's factors are rows of user_second_factors, one kind each ('totp'
 * today; a passkey is another kind with rows of its own), and ten one-time recovery codes stand in for any of them.
 * Sign-in asks for a second factor when the user has any confirmed one: `checkSecondFactor` is the one seam a
 * passkey's assertion will join.
 */

const ISSUER = 'Pacer CRM';
const RECOVERY_CODES = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

interface FactorRow {
  id: number;
  userId: number;
  kind: 'totp';
  secret: string | null;
  lastUsedStep: number | null;
  confirmedAt: string | null;
}

const codeHash = (code: string) => createHash('sha256').update(code).digest('hex');
/** A recovery code as typed: spaces and dashes dropped, lower case. */
const normaliseRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

async function totpRow(db: Knex, userId: number, confirmed: boolean): Promise<FactorRow | undefined> {
  const query = db('user_second_factors').where({ userId, kind: 'totp' });
  if (confirmed) query.whereNotNull('confirmedAt');
  else query.whereNull('confirmedAt');
  const row = await query.orderBy('id', 'desc').first();
  return row ? decodeRow<FactorRow>(columnKinds.user_second_factors, row) : undefined;
}

/**
 * Checks a code against the user's second factors and uses it up: an authenticator code moves the factor's last used
 * step forward (one conditional UPDATE, so two requests with the same code cannot both pass), a recovery code is
 * marked used the same way. Answers how it was accepted, or undefined.
 */
export async function checkSecondFactor(ctx: AppContext, userId: number, code: string): Promise<'totp' | 'recovery_code' | undefined> {
  const now = ctx.clock.now();
  const digits = code.replace(/\s/g, '');
  if (/^\d{6}$/.test(digits)) {
    const factor = await totpRow(ctx.db, userId, true);
    if (!factor?.secret) return undefined;
    const step = matchTotp(factor.secret, digits, now.getTime(), factor.lastUsedStep);
    if (step === undefined) return undefined;
    const updated = await ctx
      .db('user_second_factors')
      .where({ id: factor.id })
      .where((q) => q.whereNull('lastUsedStep').orWhere('lastUsedStep', '<', step))
      .update({ lastUsedStep: step, lastUsedAt: encodeTimestamp(now) });
    return updated === 1 ? 'totp' : undefined;
  }
  const normalised = normaliseRecoveryCode(code);
  if (!/^[a-z0-9]{10}$/.test(normalised)) return undefined;
  const used = await ctx
    .db('user_recovery_codes')
    .where({ userId, codeHash: codeHash(normalised) })
    .whereNull('usedAt')
    .update({ usedAt: encodeTimestamp(now) });
  return used === 1 ? 'recovery_code' : undefined;
}

/** /settings/account: what the two-factor card shows. */
export async function twoFactorStatus(ctx: AppContext, userId: number, sessionId: string): Promise<TwoFactorStatus> {
  const session = (await ctx.db('sessions').where({ id: sessionId }).first('secondFactorSetupRequired')) as
    { secondFactorSetupRequired: unknown } | undefined;
  const left = (await ctx.db('user_recovery_codes').where({ userId }).whereNull('usedAt').count({ n: '*' }).first()) as
    { n: number | string } | undefined;
  return {
    totpEnabled: Boolean(await totpRow(ctx.db, userId, true)),
    recoveryCodesLeft: Number(left?.n ?? 0),
    required: await requiresTwoFactor(ctx.db),
    setupRequired: Boolean(Number(session?.secondFactorSetupRequired ?? 0)),
  };
}

/** POST /api/me/totp: a new secret to scan, pending until a first code confirms it (an earlier pending one is dropped). */
export async function startTotpEnrolment(ctx: AppContext, userId: number): Promise<TotpEnrolment> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound('User not found');
  const secret = newTotpSecret();
  await withTransaction(ctx, async (trx) => {
    if (await totpRow(trx, userId, true)) throw conflict('Two-factor sign-in is already on. Turn it off first to set up a new app.');
    await trx('user_second_factors').where({ userId, kind: 'totp' }).whereNull('confirmedAt').delete();
    await trx('user_second_factors').insert({ userId, kind: 'totp', secret, createdAt: encodeTimestamp(ctx.clock.now()) });
  });
  const url = otpauthUrl(secret, user.email, ISSUER);
  return { secret, otpauthUrl: url, qrSvg: renderSVG(url, { ecc: 'M', border: 2 }) };
}

const wrongCode = (message = 'That code is not right. Enter the current code from your authenticator app.') =>
  validationFailed(message, [{ path: 'code', message }]);

/**
 * POST /api/me/totp/confirm: the first code proves the app has the secret. Two-factor sign-in is then on, the
 * ten recovery codes are made (answered this once, stored as hashes) and the user's sessions may do more than set
 * up a second factor.
 */
export async function confirmTotpEnrolment(
  ctx: AppContext,
  throttle: LoginThrottle,
  userId: number,
  client: SessionClient,
  input: unknown,
): Promise<{ recoveryCodes: string[] }> {
  const { code } = parseInput(SecondFactorCodeSchema, input);
  const pending = await totpRow(ctx.db, userId, false);
  if (!pending?.secret) throw conflict('Start the set-up first: there is no authenticator app waiting to be confirmed.');
  const wait = await throttle.reservePasswordCheck(ctx.db, userId, ctx.clock.now().getTime());
  if (wait > 0) throw tooManyRequests('Too many wrong codes. Try again later.', wait);
  const step = matchTotp(pending.secret, code.replace(/\s/g, ''), ctx.clock.now().getTime(), null);
  if (step === undefined) throw wrongCode();
  await throttle.releasePasswordCheck(ctx.db, userId);
  const recoveryCodes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  const now = encodeTimestamp(ctx.clock.now());
  await withTransaction(ctx, async (trx) => {
    const confirmed = await trx('user_second_factors')
      .where({ id: pending.id })
      .whereNull('confirmedAt')
      .update({ confirmedAt: now, lastUsedStep: step, lastUsedAt: now });
    if (confirmed === 0) throw conflict('Start the set-up first: there is no authenticator app waiting to be confirmed.');
    await trx('user_second_factors').where({ userId, kind: 'totp' }).whereNot({ id: pending.id }).delete();
    await trx('user_recovery_codes').where({ userId }).delete();
    await trx('user_recovery_codes').insert(recoveryCodes.map((c) => ({ userId, codeHash: codeHash(normaliseRecoveryCode(c)) })));
    await trx('sessions').where({ userId }).update({ secondFactorSetupRequired: 0 });
    await recordSignInEvent(trx, ctx, client, { kind: 'two_factor_enabled', succeeded: true, userId, detail: 'totp' });
  });
  ctx.log.info({ event: 'two_factor_enabled', userId }, 'two-factor sign-in turned on');
  return { recoveryCodes };
}

/** Removes every second factor and recovery code of a user; their sessions must set one up again when it is required. */
async function removeSecondFactors(trx: Knex.Transaction, userId: number): Promise<void> {
  await trx('user_second_factors').where({ userId }).delete();
  await trx('user_recovery_codes').where({ userId }).delete();
  if (await requiresTwoFactor(trx)) await trx('sessions').where({ userId }).update({ secondFactorSetupRequired: 1 });
}

/** DELETE /api/me/totp: turning it off takes the password and a code (or a recovery code), counted like a password check. */
export async function disableTotp(ctx: AppContext, throttle: LoginThrottle, userId: number, client: SessionClient, input: unknown) {
  const { password, code } = parseInput(DisableTwoFactorSchema, input);
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound('User not found');
  if (!(await totpRow(ctx.db, userId, true))) throw conflict('Two-factor sign-in is not on.');
  const wait = await throttle.reservePasswordCheck(ctx.db, userId, ctx.clock.now().getTime());
  if (wait > 0) throw tooManyRequests('Too many wrong passwords or codes. Try again later.', wait);
  if (!(await bcrypt.compare(password, user.passwordHash)))
    throw validationFailed('The password is not right', [{ path: 'password', message: 'The password is not right' }]);
  const how = await checkSecondFactor(ctx, userId, code);
  if (!how) throw wrongCode('That code is not right.');
  await throttle.releasePasswordCheck(ctx.db, userId);
  await withTransaction(ctx, async (trx) => {
    // Only the authenticator app: the user's passkeys stay (and with them the recovery codes).
    await trx('user_second_factors').where({ userId, kind: 'totp' }).delete();
    if (!(await hasSecondFactor(trx, userId))) await removeSecondFactors(trx, userId);
    await recordSignInEvent(trx, ctx, client, { kind: 'two_factor_disabled', succeeded: true, userId, detail: how });
  });
  ctx.log.info({ event: 'two_factor_disabled', userId }, 'two-factor sign-in turned off');
}

/** An admin (the users page, or `pacer users reset-2fa`) removes a user's second factors, e.g. after a lost phone. */
export async function resetSecondFactors(
  ctx: AppContext,
  actor: Actor,
  target: { id: number } | { email: string },
  client: SessionClient = CLI_CLIENT,
): Promise<{ email: string; hadSecondFactor: boolean }> {
  requireRole(actor, 'admin');
  const user = 'id' in target ? await findUserById(ctx.db, target.id) : await findUserByEmail(ctx.db, target.email);
  if (!user) throw notFound('User not found');
  const hadSecondFactor = await hasSecondFactor(ctx.db, user.id);
  await withTransaction(ctx, async (trx) => {
    await removeSecondFactors(trx, user.id);
    await recordSignInEvent(trx, ctx, client, {
      kind: 'two_factor_reset',
      succeeded: true,
      userId: user.id,
      actorId: actor.userId === user.id ? null : actor.userId,
      detail: actor.source,
    });
  });
  ctx.log.info({ event: 'two_factor_reset', userId: user.id, by: actor.userId, source: actor.source }, 'second factor reset by an admin');
  return { email: user.email, hadSecondFactor };
}

/** Thrown by sign-in when the password was right and a second factor is needed but was not given. */
export const secondFactorRequired = () =>
  new AppError(401, 'second_factor_required', 'Enter the code from your authenticator app (or a recovery code).');
