import type { Request } from 'express';
import type { Actor } from '@services/context.js';
import { unauthorized } from '@services/errors.js';
import type { PublicUser } from '@shared/schemas/auth.js';

interface ReadRequest {
  /** The server's context for this request (its type is the web server's, declared on Express's Request). */
  ctx: Request['ctx'];
  /** The signed-in person; unset when the request came with an API token. */
  user: PublicUser | undefined;
  /** Who the request acts as (the person, or the API token), for the services' role checks. */
  actor: Actor;
  /** The signed-in session (the hash of its token); unset with an API token. */
  sessionId: string | undefined;
  params: Record<string, string | undefined>;
  query: URLSearchParams;
  /** The locale the browser asked for, for anything formatted on the server. */
  locale: string;
  /** The browser's time zone (its tz cookie), for what depends on the visitor's calendar day. */
  timeZone: string;
}

/**
 * A GET endpoint of /api: parses the URL's parameters and calls its service. Server-side route loaders call the
 * same services through the typed DataSource (src/ssr/data-source.ts), so both return the same presenter output.
 */
export interface ReadRoute {
  path: string;
  handler(request: ReadRequest): Promise<unknown>;
}

export const defineRead = (path: string, handler: ReadRoute['handler']): ReadRoute => ({ path, handler });

/** The signed-in person of a route about them (their sessions, preferences): API tokens are refused before these. */
export function personOf(request: Pick<ReadRequest, 'user' | 'sessionId'>): { user: PublicUser; sessionId: string } {
  if (!request.user || request.sessionId === undefined) throw unauthorized();
  return { user: request.user, sessionId: request.sessionId };
}

export function queryOf(req: Request): URLSearchParams {
  const index = req.originalUrl.indexOf('?');
  return new URLSearchParams(index === -1 ? '' : req.originalUrl.slice(index + 1));
}
