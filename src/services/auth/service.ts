import bcrypt from 'bcrypt';
import { LoginSchema, type PublicUser } from '@shared/schemas/auth.js';
import type { AppContext } from '../context.js';
import { AppError, tooManyRequests } from '../errors.js';
import { findUserByEmail, updateUser } from '../users/queries.js';
import { presentUser } from '../users/service.js';
import { parseInput } from '../validate.js';
import type { LoginThrottle } from './login-throttle.js';
import { verifyPasskeyAssertion } from './passkeys.js';
import { checkSecondFactor, secondFactorRequired } from './second-factor.js';
import { hasSecondFactor } from './security-settings.js';
import type { SessionClient } from './sessions.js';
import { noticeNewBrowser, recordSignInEvent } from './sign-in-events.js';

const INVALID_CREDENTIALS = 'Invalid email or password';
const WRONG_PASSKEY = 'That passkey is not one of this account’s, or it could not be checked. Try again, or enter a code.';
const WRONG_CODE = 'That code is not right, or it was already used. Enter the current code from your authenticator app.';

/** Compared against when the email is unknown, so both paths cost one bcrypt comparison. */
const dummyHashes = new Map<number, Promise<string>>();
function dummyHash(cost: number): Promise<string> {
  let hash = dummyHashes.get(cost);
  if (!hash) {
    hash = bcrypt.hash('pacer-timing-equaliser', cost);
    dummyHashes.set(cost, hash);
  }
  return hash;
}

/**
 * Sign-in: the password, then, when the user has a second factor, its code (docs/decisions/0102). Every attempt is
 * reserved in the throttle before anything is checked (ADR 0088); a wrong password or a wrong code keeps its
 * reservation, a right password without the code gives it back (the browser asks for the code and sends both again).
 * Each outcome is written to the sign-in history.
 */
export async function login(ctx: AppContext, throttle: LoginThrottle, input: unknown, client: SessionClient): Promise<PublicUser> {
  const { email, password, code, passkey } = parseInput(LoginSchema, input);
  const { ip } = client;
  const now = ctx.clock.now().getTime();
  // Counted before the password is checked, so attempts sent at once cannot all get past the limit.
  const wait = await throttle.reserveSignIn(ctx.db, email, ip, now);
  if (wait > 0) {
    ctx.log.warn({ event: 'login_throttled', ip }, 'sign-in throttled');
    throw tooManyRequests('Too many failed sign-in attempts. Try again later.', wait);
  }
  const user = await findUserByEmail(ctx.db, email);
  const matches = await bcrypt.compare(password, user?.passwordHash ?? (await dummyHash(ctx.config.bcryptCost)));
  if (!user || !matches || !user.isActive) {
    const reason = !user ? 'unknown' : !matches ? 'password' : 'inactive';
    ctx.log.warn({ event: 'login_failed', ip, reason }, 'sign-in failed');
    await recordSignInEvent(ctx.db, ctx, client, { kind: 'sign_in', succeeded: false, userId: user?.id ?? null, email, detail: reason });
    throw new AppError(401, 'invalid_credentials', INVALID_CREDENTIALS);
  }
  let how = 'password';
  if (await hasSecondFactor(ctx.db, user.id)) {
    if (!code && !passkey) {
      await throttle.giveBackSignIn(ctx.db, email, ip);
      throw secondFactorRequired();
    }
    // A passkey of this user stands in for the code (docs/decisions/0104).
    const accepted = passkey
      ? (await verifyPasskeyAssertion(ctx, passkey, user.id))
        ? 'passkey'
        : undefined
      : await checkSecondFactor(ctx, user.id, code!);
    await recordSignInEvent(ctx.db, ctx, client, {
      kind: 'second_factor',
      succeeded: Boolean(accepted),
      userId: user.id,
      email,
      detail: accepted ?? (passkey ? 'passkey' : 'wrong_code'),
    });
    if (!accepted) {
      ctx.log.warn({ event: 'login_failed', ip, reason: 'second_factor', userId: user.id }, 'sign-in failed');
      throw new AppError(401, 'invalid_second_factor', passkey ? WRONG_PASSKEY : WRONG_CODE);
    }
    how = accepted;
  }
  await throttle.releaseSignIn(ctx.db, email, ip);
  const lastLogin = ctx.clock.now();
  await updateUser(ctx.db, user.id, { lastLogin });
  await recordSignInEvent(ctx.db, ctx, client, { kind: 'sign_in', succeeded: true, userId: user.id, email, detail: how });
  await noticeNewBrowser(ctx, user, client);
  ctx.log.info({ event: 'login', userId: user.id, how }, 'signed in');
  return presentUser({ ...user, lastLogin: lastLogin.toISOString() });
}
