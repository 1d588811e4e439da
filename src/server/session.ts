import cookieSession from 'cookie-session';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { createSession, resumeSession, type SessionClient } from '@services/auth/sessions.js';
import { login } from '@services/auth/service.js';
import { AppError } from '@services/errors.js';
import { SIGN_IN_INTENT } from '@shared/session.js';
import { presentUser } from '@services/users/service.js';
import type { Config } from '@config/env.js';
import { CookieSigner } from './cookie-signer.js';
import type { SessionPayload } from './types.js';

/** `__Host-` pins the cookie to our origin, but browsers only accept it on a Secure cookie. */
function sessionCookieName(config: Config): string {
  return config.cookieSecure ? '__Host-pacer' : 'pacer';
}

export function sessionCookie(config: Config): RequestHandler {
  return cookieSession({
    name: sessionCookieName(config),
    // The current secret signs; the previous one still verifies, so rotating it signs nobody out.
    keys: new CookieSigner(config.sessionSecretPrevious ? [config.sessionSecret, config.sessionSecretPrevious] : [config.sessionSecret]),
    httpOnly: true,
    sameSite: 'lax',
    secure: config.cookieSecure,
    path: '/',
    maxAge: config.sessionMaxMs,
  });
}

/**
 * Resolves req.user from the signed cookie's token: one read of the session joined to its user by primary keys
 * (the absolute and idle limits, the user's active flag and role are all checked there, never cached), plus a write
 * of lastSeenAt at most once a minute. A cookie whose session has ended is dropped.
 */
export function loadCurrentUser(): RequestHandler {
  return async (req: Request, _res: Response, next: NextFunction) => {
    try {
      const session = req.session as SessionPayload | null | undefined;
      if (!session?.token) return next();
      const resumed = await resumeSession(req.ctx, session.token);
      if (!resumed) {
        req.session = null;
        return next();
      }
      req.user = presentUser(resumed.user);
      req.sessionId = resumed.sessionId;
      req.themePreference = resumed.theme;
      req.storedPreferences = resumed.preferences;
      req.secondFactorSetupRequired = resumed.secondFactorSetupRequired;
      next();
    } catch (error) {
      next(error);
    }
  };
}

/**
 * Why a session cannot start on this request, if it cannot: a Secure cookie is never sent over plain HTTP
 * (cookie-session drops it without a word), so the sign-in would answer 200 and leave the browser signed out.
 */
function insecureSessionStart(req: Request): AppError | undefined {
  if (!req.ctx.config.cookieSecure || req.secure) return undefined;
  req.log.warn(
    { protocol: req.protocol, forwardedProto: req.get('x-forwarded-proto') ?? null },
    'refused to start a session over plain HTTP while cookies are Secure (is TRUST_PROXY set to the TLS proxy?)',
  );
  return new AppError(
    403,
    'insecure_connection',
    'Signing in needs a secure connection: the session cookie is only kept over HTTPS. Open the site with https://.',
  );
}

/** Put before any route that starts a session, so it is refused before anything is checked or written. */
export function refuseInsecureSignIn(): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => next(insecureSessionStart(req));
}

/** What the sessions table records about where a sign-in came from. */
export const sessionClientOf = (req: Request): SessionClient => ({ ip: req.ip ?? 'unknown', userAgent: req.get('user-agent') ?? '' });

/**
 * Signs a user in: a new session row and a brand-new cookie, so nothing from before it survives (fixation). The
 * secure-connection refusal comes first, so no row is made for a cookie the browser would drop.
 */
export async function startSession(req: Request, userId: number): Promise<void> {
  const refusal = insecureSessionStart(req);
  if (refusal) throw refusal;
  const token = await createSession(req.ctx, userId, sessionClientOf(req));
  req.session = { token } satisfies SessionPayload;
}

/**
 * The sign-in form posted to a page (before hydration or without JavaScript; once hydrated it uses /api/login):
 * signs in as /api/login does and loads the same URL again (303), now for the user. A refusal (wrong password,
 * throttled, a field missing, an insecure connection) is left on the request for the sign-in screen to show.
 */
export function signInFromPageForm(): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    // Every page form of a signed-in user passes through here: it is not read for them.
    if (req.user) return next();
    const form = new URLSearchParams(typeof req.body === 'string' ? req.body : '');
    if (form.get('intent') !== SIGN_IN_INTENT) return next();
    try {
      const user = await login(
        req.ctx,
        req.ctx.throttle,
        { email: form.get('email') ?? '', password: form.get('password') ?? '', code: form.get('code') || undefined },
        sessionClientOf(req),
      );
      await startSession(req, user.id);
      res.redirect(303, req.originalUrl);
    } catch (error) {
      if (!(error instanceof AppError)) return next(error);
      req.signInRefusal = { status: error.status, message: error.message, code: error.code };
      if (error.headers) res.set(error.headers);
      next();
    }
  };
}

/** What a session held for second-factor set-up may still reach: the account page and what it uses. */
const SETUP_PAGE = '/settings/account';
const OPEN_WHILE_HELD = [
  /^\/api\/(me|session|logout|sessions)$/,
  /^\/api\/me\/(totp|totp\/confirm|two-factor|sign-ins)$/,
  /^\/api\/me\/passkeys(\/options|\/\d+)?$/,
  /^\/api\/sessions\/[^/]+$/,
  /^\/api\/preferences(\/[^/]+)?$/,
];

/**
 * "Require two-factor for everyone" (docs/decisions/0102): a signed-in user without a second factor is sent to
 * /settings/account to set one up; every other page redirects there and every other API call is refused (403
 * second_factor_setup_required) until it is done.
 */
export function holdForSecondFactorSetup(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!req.user || !req.secondFactorSetupRequired) return next();
    if (req.path === SETUP_PAGE || OPEN_WHILE_HELD.some((pattern) => pattern.test(req.path))) return next();
    if (req.path.startsWith('/api/')) {
      res.status(403).json({
        code: 'second_factor_setup_required',
        message: 'Set up two-factor sign-in on your account page first (an admin requires it).',
      });
      return;
    }
    res.redirect(303, SETUP_PAGE);
  };
}
