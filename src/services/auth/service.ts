import bcrypt from 'bcrypt';
import { LoginSchema, type PublicUser } from '@shared/schemas/auth.js';
import type { AppContext } from '../context.js';
import { AppError, tooManyRequests } from '../errors.js';
import { findUserByEmail, findUserById, updateUser, type UserRow } from '../users/queries.js';
import { presentUser } from '../users/service.js';
import { parseInput } from '../validate.js';
import type { LoginThrottle } from './login-throttle.js';

const INVALID_CREDENTIALS = 'Invalid email or password';

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

export interface LoginResult {
  user: PublicUser;
  sessionVersion: number;
}

export async function login(ctx: AppContext, throttle: LoginThrottle, input: unknown, ip: string): Promise<LoginResult> {
  const { email, password } = parseInput(LoginSchema, input);
  const now = ctx.clock.now().getTime();
  const wait = throttle.retryAfter(email, ip, now);
  if (wait > 0) {
    ctx.log.warn({ event: 'login_throttled', ip }, 'sign-in throttled');
    throw tooManyRequests('Too many failed sign-in attempts. Try again later.', wait);
  }
  const user = await findUserByEmail(ctx.db, email);
  const matches = await bcrypt.compare(password, user?.passwordHash ?? (await dummyHash(ctx.config.bcryptCost)));
  if (!user || !matches || !user.isActive) {
    throttle.recordFailure(email, ip, now);
    ctx.log.warn({ event: 'login_failed', ip, reason: !user ? 'unknown' : !matches ? 'password' : 'inactive' }, 'sign-in failed');
    throw new AppError(401, 'invalid_credentials', INVALID_CREDENTIALS);
  }
  throttle.recordSuccess(email, ip);
  const lastLogin = ctx.clock.now();
  await updateUser(ctx.db, user.id, { lastLogin });
  ctx.log.info({ event: 'login', userId: user.id }, 'signed in');
  return { user: presentUser({ ...user, lastLogin: lastLogin.toISOString() }), sessionVersion: user.sessionVersion };
}

/** Logging out revokes every copy of the session cookie, on every device. */
export async function logout(ctx: AppContext, userId: number): Promise<void> {
  await updateUser(ctx.db, userId, {}, { bumpSessionVersion: true });
}

export async function userForSession(ctx: AppContext, userId: number, version: number): Promise<UserRow | undefined> {
  const user = await findUserById(ctx.db, userId);
  return user && user.isActive && user.sessionVersion === version ? user : undefined;
}
