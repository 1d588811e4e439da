import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { unreadableRequest } from './errors.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's request type is extended through this namespace.
  namespace Express {
    interface Request {
      /** This request's id, also sent back as X-Request-Id. */
      id: string;
      /** The server's logger, bound to this request's id, method and path. */
      log: Logger;
    }
  }
}

/** Health probes and static assets come too often to say anything; their failures are logged where they happen. */
const isQuiet = (url: string) => url === '/healthz' || url === '/readyz' || url.startsWith('/assets/');

/**
 * What in a URL is a secret, each match logged as [redacted]: the token of a set-password link (page and API), and
 * the value of any query parameter whose name says token, secret or password. Secrets a later path carries (API
 * tokens, webhook secrets) join this list; an API token (`pcr_…`) is redacted wherever a URL carries one by mistake.
 */
const SECRETS_IN_URLS: readonly RegExp[] = [
  /pcr_[A-Za-z0-9_-]+/g,
  /(?<=^(?:\/api)?\/set-password\/)[^/?#]+/i,
  /(?<=[?&][^=&#]*(?:token|secret|password)[^=&#]*=)[^&#]*/gi,
];

/** The URL as the log may keep it. */
function loggableUrl(url: string): string {
  return SECRETS_IN_URLS.reduce((kept, secret) => kept.replace(secret, '[redacted]'), url);
}

/** A proxy's own id is kept so its logs and ours line up; only a short token, so a client cannot flood or dress up the logs. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

function requestIdOf(req: Request): string {
  const given = req.get('x-request-id');
  return given !== undefined && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * The last line of defence for the request's own streams, not a substitute for handling errors where they
 * happen: an 'error' nobody listens for ends the process (the response emits one for a write after its end; the
 * request, once anyone listens, when it is destroyed with an error). Logged with the request id, then answered
 * if nothing was sent yet, or the connection is closed so the client is not left waiting.
 */
function guardRequestStreams(req: Request, res: Response): void {
  req.on('error', (error: NodeJS.ErrnoException) => {
    // The client leaving mid-body: nobody to answer, and the completion line already says so.
    if (error.code === 'ECONNRESET') return req.log.debug({ err: error }, 'request stream closed by the client');
    req.log.warn({ err: error }, 'request stream failed');
    if (!res.headersSent && !req.socket.destroyed) {
      const refusal = unreadableRequest();
      res.status(refusal.status).set('Connection', 'close').json(refusal.toBody());
    } else if (!res.writableEnded) {
      res.destroy();
    }
  });
  res.on('error', (error: Error) => {
    req.log.warn({ err: error }, 'response stream failed');
    if (!res.writableEnded) res.destroy();
  });
}

/**
 * Gives each request an id (X-Request-Id: the incoming one when it is a short safe token, else a new UUID) and a
 * child logger carrying it, and logs one line when the response ends: status, time taken, and whether the client
 * left first. Headers (cookies included) never reach the log. Errors on the request's own streams are caught here.
 * Written here rather than taken from pino-http, whose per-request serialising of the whole request object cost a
 * tenth of a list answer's time (ADR 0012).
 */
export function requestLogging(base: Logger): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const id = requestIdOf(req);
    req.id = id;
    res.setHeader('X-Request-Id', id);
    req.log = base.child({ req: { id, method: req.method, url: loggableUrl(req.originalUrl) } });
    guardRequestStreams(req, res);
    if (!isQuiet(req.originalUrl)) {
      const started = performance.now();
      res.once('close', () => {
        const level = res.statusCode >= 500 ? 'error' : 'info';
        if (!req.log.isLevelEnabled(level)) return;
        const responseTime = Math.round(performance.now() - started);
        const completed = res.writableFinished;
        req.log[level](
          { res: { statusCode: res.statusCode }, responseTime, ...(completed ? {} : { aborted: true }) },
          completed ? 'request completed' : 'request aborted by the client',
        );
      });
    }
    next();
  };
}

/**
 * Once the session is read: every later line of the request (its completion line included) names the signed-in
 * user, and so do the lines the services log through the request's context.
 */
export function logSignedInUser(): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (req.user) {
      req.log = req.log.child({ userId: req.user.id });
      req.ctx.log = req.log;
    }
    next();
  };
}
