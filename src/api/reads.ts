import type { Request } from 'express';
import type { PublicUser } from '../shared/schemas/auth.js';
import type { ServerContext } from '../server/types.js';

export interface ReadRequest {
  ctx: ServerContext;
  user: PublicUser;
  params: Record<string, string | undefined>;
  query: URLSearchParams;
  /** The locale the browser asked for, for anything formatted on the server. */
  locale: string;
}

/**
 * A GET endpoint's logic, written once. The /api router serves it as JSON and server-side route loaders call it
 * in-process through the same path, so both return the very same presenter output.
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
