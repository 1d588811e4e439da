import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { authenticateApiToken } from '@services/api-tokens/service.js';
import { TokenRateLimiter } from '@services/api-tokens/rate-limit.js';
import { tooManyRequests } from '@services/errors.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * `Authorization: Bearer pcr_…` on /api (mounted there only: pages never take a token): the request acts with the
 * token's role, and any session cookie it also carries is ignored, so one request is never two people. Unknown,
 * revoked and expired tokens are refused with 401; past the per-token rate, 429 with Retry-After. A token request
 * needs no Origin (the origin check is for browsers, which never send our tokens by themselves); its log lines name
 * the token, never the token's secret (headers are not logged).
 */
export function apiTokenAuth(perSecond: number): RequestHandler {
  const limiter = new TokenRateLimiter(perSecond);
  return async (req: Request, _res: Response, next: NextFunction) => {
    const match = BEARER.exec(req.get('authorization') ?? '');
    if (!match) return next();
    try {
      req.user = undefined;
      req.sessionId = undefined;
      const token = await authenticateApiToken(req.ctx, match[1]!, req.ip ?? 'unknown', `${req.method} ${req.baseUrl}${req.path}`);
      req.apiToken = token;
      req.log = req.log.child({ apiToken: { id: token.id, name: token.name } });
      req.ctx.log = req.log;
      const retryAfter = limiter.take(token.id, req.ctx.clock.now().getTime());
      if (retryAfter > 0) {
        req.log.warn({ event: 'api_token_rate_limited' }, 'API token over its rate limit');
        throw tooManyRequests(`Too many requests with this API token; try again in ${retryAfter} s.`, retryAfter);
      }
      next();
    } catch (error) {
      next(error);
    }
  };
}
