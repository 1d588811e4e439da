import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@services/errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
}

/**
 * Every state-changing request must name our own origin (Origin, else Referer), and /api writes must be JSON
 * (or multipart for uploads): a cross-site form can send neither, so SameSite is not our only CSRF defence.
 * Requests with an API token need no origin; their writes must still be JSON.
 */
export function originCheck() {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const expected = `${req.protocol}://${req.get('host')}`;
    const origin = originOf(req.get('origin')) ?? originOf(req.get('referer'));
    // An API token (src/server/api-token-auth.ts) is sent by a script, never by a browser on its own: no CSRF to stop.
    if (origin !== expected && !req.apiToken) {
      req.ctx.log.warn(
        { event: 'origin_rejected', origin: origin ?? null, method: req.method, path: req.path },
        'cross-origin write refused',
      );
      return next(new AppError(403, 'bad_origin', 'Request origin not allowed'));
    }
    const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
    if (req.path.startsWith('/api/') && hasBody && !req.is(['application/json', 'multipart/form-data'])) {
      req.ctx.log.warn({ event: 'content_type_rejected', contentType: req.get('content-type') ?? null }, 'non-JSON write refused');
      return next(new AppError(403, 'bad_content_type', 'Requests to /api must send JSON'));
    }
    next();
  };
}
