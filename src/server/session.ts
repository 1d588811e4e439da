import { randomBytes } from 'node:crypto';
import cookieSession from 'cookie-session';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { userForSession } from '@services/auth/service.js';
import { AppError } from '@services/errors.js';
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
    keys: new CookieSigner([config.sessionSecret]),
    httpOnly: true,
    sameSite: 'lax',
    secure: config.cookieSecure,
    path: '/',
    maxAge: config.sessionMaxMs,
  });
}

/** Refresh the idle timestamp at most this often, so most answers carry no Set-Cookie. */
const LAST_SEEN_GRANULARITY_MS = 60_000;

/**
 * Resolves req.user from the signed cookie. The cookie alone proves nothing after logout, so the user's
 * session version, the absolute age (iat) and the idle time (last) are all checked on the server.
 */
export function loadCurrentUser(): RequestHandler {
  return async (req: Request, _res: Response, next: NextFunction) => {
    try {
      const session = req.session as SessionPayload | null | undefined;
      if (!session?.uid || session.ver === undefined || !session.iat || !session.last) return next();
      const { config, clock } = req.ctx;
      const now = clock.now().getTime();
      if (now - session.iat > config.sessionMaxMs || now - session.last > config.sessionIdleMs) {
        req.session = null;
        return next();
      }
      const user = await userForSession(req.ctx, session.uid, session.ver);
      if (!user) {
        req.session = null;
        return next();
      }
      req.user = presentUser(user);
      if (now - session.last >= LAST_SEEN_GRANULARITY_MS) session.last = now;
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

/** A brand-new session object on sign-in, so nothing from before it survives (fixation). */
export function startSession(req: Request, userId: number, version: number): void {
  const refusal = insecureSessionStart(req);
  if (refusal) throw refusal;
  const now = req.ctx.clock.now().getTime();
  req.session = { sid: randomBytes(12).toString('base64url'), uid: userId, ver: version, iat: now, last: now } satisfies SessionPayload;
}
