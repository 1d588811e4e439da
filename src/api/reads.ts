import type { Request } from 'express';
import type { PublicUser } from '@shared/schemas/auth.js';

interface ReadRequest {
  /** The server's context for this request (its type is the web server's, declared on Express's Request). */
  ctx: Request['ctx'];
  user: PublicUser;
  /** The signed-in session (the hash of its token). */
  sessionId: string;
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

export function queryOf(req: Request): URLSearchParams {
  const index = req.originalUrl.indexOf('?');
  return new URLSearchParams(index === -1 ? '' : req.originalUrl.slice(index + 1));
}
