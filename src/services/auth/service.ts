import bcrypt from 'bcrypt';
import { LoginSchema, type PublicUser } from '@shared/schemas/auth.js';
import type { AppContext } from '../context.js';
import { AppError, tooManyRequests } from '../errors.js';
import { findUserByEmail, updateUser } from '../users/queries.js';
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

export async function login(ctx: AppContext, throttle: LoginThrottle, input: unknown, client: { ip: string }): Promise<PublicUser> {
  const { email, password } = parseInput(LoginSchema, input);
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
    ctx.log.warn({ event: 'login_failed', ip, reason: !user ? 'unknown' : !matches ? 'password' : 'inactive' }, 'sign-in failed');
    throw new AppError(401, 'invalid_credentials', INVALID_CREDENTIALS);
  }
  await throttle.releaseSignIn(ctx.db, email, ip);
  const lastLogin = ctx.clock.now();
  await updateUser(ctx.db, user.id, { lastLogin });
  ctx.log.info({ event: 'login', userId: user.id }, 'signed in');
  return presentUser({ ...user, lastLogin: lastLogin.toISOString() });
}
