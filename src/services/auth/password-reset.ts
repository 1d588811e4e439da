import { setTimeout as sleep } from 'node:timers/promises';
import { PasswordResetRequestSchema } from '@shared/schemas/auth.js';
import type { AppContext } from '../context.js';
import { tooManyRequests } from '../errors.js';
import { mailConfigured } from '../mail/mailer.js';
import { issueLink } from '../users/links.js';
import { findUserByEmail } from '../users/queries.js';
import { presentUser } from '../users/service.js';
import { parseInput } from '../validate.js';
import type { LoginThrottle } from './login-throttle.js';
import type { SessionClient } from './sessions.js';

/**
 * "Forgot password?" (docs/decisions/0103): the same one-time set-password link an admin makes, emailed to the
 * address when it belongs to an active account. The answer is the same for every address and takes at least
 * ANSWER_FLOOR_MS: the only work done before answering is one lookup, and the link and its email are made after
 * it, in the background, so neither the answer nor its timing says whether the address has an account.
 * Available when mail is set up and APP_URL names the site (links never follow a request's Host header).
 */
const ANSWER_FLOOR_MS = 250;

/** Whether the sign-in page offers the reset by email (else it says to ask an admin). */
export const selfServiceResetAvailable = (ctx: AppContext) => mailConfigured(ctx) && Boolean(ctx.config.appUrl);

export async function requestPasswordReset(
  ctx: AppContext,
  throttle: LoginThrottle,
  input: unknown,
  client: SessionClient,
): Promise<{ resetByEmail: boolean }> {
  const started = Date.now();
  const { email } = parseInput(PasswordResetRequestSchema, input);
  const available = selfServiceResetAvailable(ctx);
  if (available) {
    const wait = await throttle.reservePasswordReset(ctx.db, email, client.ip, ctx.clock.now().getTime());
    if (wait > 0) throw tooManyRequests('Too many password reset requests. Try again later.', wait);
    const user = await findUserByEmail(ctx.db, email);
    if (user?.isActive) {
      const selfService = { userId: null, source: 'web' as const, role: 'staff' as const };
      void issueLink(ctx, selfService, presentUser(user), ctx.config.appUrl!).catch((error: unknown) =>
        ctx.log.error({ err: error, userId: user.id }, 'could not make a password reset link'),
      );
    }
    ctx.log.info({ event: 'password_reset_requested', ip: client.ip, known: Boolean(user?.isActive) }, 'password reset requested');
  }
  await sleep(Math.max(0, ANSWER_FLOOR_MS - (Date.now() - started)));
  // Says whether reset by email is offered at all, never whether this address has an account.
  return { resetByEmail: available };
}
