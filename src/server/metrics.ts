import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { metricsHandler } from '@context/metrics.js';
import { countRequest, startMetrics } from '@services/metrics.js';
import type { ServerContext } from './types.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's types are extended through this namespace.
  namespace Express {
    interface Locals {
      /** The page's route pattern (set by the page renderer), the request's metrics label. */
      routePattern?: string;
    }
  }
}

const PATTERN = Symbol('route pattern');
const ROUTE = Symbol('matched route');
type WithPattern = Request & { [PATTERN]?: string; [ROUTE]?: unknown };

/**
 * Express sets `req.route` when a route's handlers start, while `req.baseUrl` is still the mount path of its
 * router; by the time the answer ends an error may have carried the request back out of that router (baseUrl
 * restored), so the full pattern (`/api` + `/events/:id`) is taken at that moment.
 */
function rememberRoutePatterns(app: Express): void {
  Object.defineProperty(app.request, 'route', {
    configurable: true,
    get(this: WithPattern) {
      return this[ROUTE];
    },
    set(this: WithPattern, route: { path: unknown }) {
      this[ROUTE] = route;
      this[PATTERN] = this.baseUrl + String(route.path);
    },
  });
}

/** A bounded label: a route pattern, never the URL (ids, tokens and junk paths would each make a series). */
function routeLabelOf(req: WithPattern, res: Response): string {
  const pattern = res.locals.routePattern ?? req[PATTERN];
  if (pattern !== undefined) return pattern;
  if (req.path.startsWith('/assets/')) return '/assets';
  return 'unmatched';
}

/** One histogram observation per answered request (the list API's budget allows that and little more). */
function requestMetrics(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    res.once('finish', () => {
      countRequest(routeLabelOf(req, res), req.method, res.statusCode, (performance.now() - started) / 1000);
    });
    next();
  };
}

/**
 * /metrics, ahead of the session and origin checks: with METRICS_TOKEN unset an unknown path (404), else served to
 * a scraper that sends the token, and every request is timed.
 */
export function mountMetrics(app: Express, ctx: ServerContext): void {
  const token = ctx.config.metrics.token;
  if (token === undefined) {
    app.all('/metrics', (_req, res) => {
      res.status(404).type('text/plain').send('Not found');
    });
    return;
  }
  startMetrics(ctx.db);
  rememberRoutePatterns(app);
  app.use(requestMetrics());
  app.get('/metrics', metricsHandler(token, ctx.db, ctx.log));
}
