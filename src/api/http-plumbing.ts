import type { Request, RequestHandler } from 'express';
import type { SessionClient } from '@services/auth/sessions.js';
import type { ThemeChoice } from '@shared/theme.js';

/**
 * What the web server hands the API (createApiRouter): the parts of HTTP that src/server owns, the session cookie,
 * the request's locale and the answer to an unknown path. The API calls them and never imports src/server, so the
 * layers stay one-way (docs/conventions.md, "Layout").
 */
export interface HttpPlumbing {
  /** Signs a user in: a new session row and a brand-new cookie (refused over plain HTTP when cookies are Secure). */
  startSession(req: Request, userId: number): Promise<void>;
  /** What the sessions table records about where a sign-in came from. */
  sessionClientOf(req: Request): SessionClient;
  /** Put before any route that starts a session, so it is refused before anything is checked or written. */
  refuseInsecureSignIn(): RequestHandler;
  /** The request's locale, the browser's time zone and the theme, for the session and server-side formatting. */
  localeOf(req: Request): string;
  timeZoneOf(req: Request): string;
  themeOf(req: Request): ThemeChoice;
  /** The last handler of /api: no route there for this method and path. */
  apiNotFound(): RequestHandler;
}
