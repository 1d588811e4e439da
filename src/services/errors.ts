import type { ApiErrorBody } from '@shared/api-error.js';

/** The one error type services throw; the HTTP layer and the CLI map it to a status or an exit code. */
export class AppError extends Error {
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly issues?: ApiErrorBody['issues'],
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  toBody(): ApiErrorBody {
    return this.issues ? { message: this.message, code: this.code, issues: this.issues } : { message: this.message, code: this.code };
  }
}

export const badRequest = (message: string, issues?: ApiErrorBody['issues']) => new AppError(400, 'bad_request', message, issues);
export const validationFailed = (message: string, issues: ApiErrorBody['issues']) =>
  new AppError(400, 'validation_failed', message, issues);
export const unauthorized = (message = 'Not signed in') => new AppError(401, 'unauthorized', message);
export const forbidden = (message: string) => new AppError(403, 'forbidden', message);
export const notFound = (message: string) => new AppError(404, 'not_found', message);
export const conflict = (message: string) => new AppError(409, 'conflict', message);
export const payloadTooLarge = (message: string) => new AppError(413, 'payload_too_large', message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, 'too_many_requests', message, undefined, { 'Retry-After': String(retryAfterSeconds) });
export const serviceUnavailable = (message: string) => new AppError(503, 'unavailable', message);

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/**
 * Thrown at a batch boundary of a job that was cancelled (or taken over by another process). It lives here, not
 * with the jobs, so the services a job runs (the sync records its run as cancelled) can tell it apart without
 * importing the jobs that call them.
 */
export class JobCancelledError extends Error {
  constructor() {
    super('The job was cancelled');
    this.name = 'JobCancelledError';
  }
}

/**
 * A system message fit to show a caller: the paths of this machine that it quotes ('…') or names (/a/b) left out, as
 * they tell a client nothing it can act on and something about the server it should not know.
 */
export function withoutPaths(message: string): string {
  return message.replace(/'[^']*'/g, '…').replace(/(?:[A-Za-z]:)?(?:[\\/][^\s\\/'",;:()]+){2,}[\\/]?/g, '…');
}
