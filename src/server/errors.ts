import type { NextFunction, Request, Response } from 'express';
import { AppError, badRequest, serviceUnavailable } from '@services/errors.js';

/** Errors Express and its body parser raise themselves (http-errors): a status and, for the parser, a type. */
interface HttpLayerError {
  type?: string;
  status?: number;
}

/** A request whose bytes could not be taken in (broken %-encoding, a body stream that failed…). */
export const unreadableRequest = () => badRequest('The request could not be read');

/** Maps every failure to `{message, code, issues?}`; unknown errors are logged and answered without internals. */
export function errorHandler() {
  return (caught: unknown, req: Request, res: Response, next: NextFunction) => {
    let error = caught;
    // The client went away (or the server is draining): nobody to answer, and nothing went wrong on our side.
    // (The socket, not req.destroyed: Node destroys a request stream once its body has been read.)
    if (res.destroyed || req.socket.destroyed) {
      req.log?.debug({ err: error }, 'request abandoned by the client');
      return;
    }
    if (res.headersSent) return next(error);
    if (isDatabaseUnavailable(error)) {
      req.log?.error({ err: error }, 'database unavailable');
      error = serviceUnavailable('The database is unavailable. Try again shortly.');
    }
    if (error instanceof AppError) {
      if (error.headers) res.set(error.headers);
      return res.status(error.status).json(error.toBody());
    }
    const httpError = error as HttpLayerError;
    if (httpError.type === 'entity.parse.failed') {
      return res.status(400).json({ message: 'The request body is not valid JSON', code: 'bad_json' });
    }
    if (httpError.type === 'entity.too.large') {
      return res.status(413).json({ message: 'The request body is too large', code: 'payload_too_large' });
    }
    // Anything else Express refused as the client's fault, e.g. a path with broken %-encoding.
    if (typeof httpError.status === 'number' && httpError.status >= 400 && httpError.status < 500) {
      return res.status(httpError.status).json(unreadableRequest().toBody());
    }
    req.log?.error({ err: error }, 'unhandled error');
    res.status(500).json({ message: 'Something went wrong on our side', code: 'internal' });
  };
}

function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  const name = (error as { name?: string }).name;
  return (
    name === 'KnexTimeoutError' ||
    code === 'ECONNREFUSED' ||
    code === 'PROTOCOL_CONNECTION_LOST' ||
    code === 'ETIMEDOUT' ||
    code === 'ER_CON_COUNT_ERROR'
  );
}

export function apiNotFound() {
  return (req: Request, res: Response) => {
    res.status(404).json({ message: `No API route for ${req.method} ${req.path}`, code: 'not_found' });
  };
}
