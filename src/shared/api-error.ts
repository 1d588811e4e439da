/** The JSON body of every error answer from /api. */
export interface ApiErrorBody {
  message: string;
  code: string;
  issues?: Array<{ path: string; message: string }>;
}

/** Thrown by the browser's request helper for a non-2xx answer; message per spec point 8: "status: body text". */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    public readonly body: string,
    statusText: string,
  ) {
    super(`${status}: ${body || statusText}`);
    this.name = 'HttpError';
  }

  /** The server's own message when the body is our JSON error shape. */
  get serverMessage(): string | undefined {
    try {
      const parsed = JSON.parse(this.body) as Partial<ApiErrorBody>;
      return typeof parsed.message === 'string' ? parsed.message : undefined;
    } catch {
      return undefined;
    }
  }
}

/** What a failure toast shows: the server's message when present, else the given fallback. */
export function messageOf(error: unknown, fallback: string): string {
  if (error instanceof HttpError) return error.serverMessage ?? fallback;
  if (error && typeof error === 'object' && 'status' in error && 'message' in error) {
    const message = (error as { message: unknown }).message;
    if (typeof message === 'string' && message) return message;
  }
  return fallback;
}

export function statusOf(error: unknown): number | undefined {
  if (error && typeof error === 'object' && 'status' in error) {
    const status = (error as { status: unknown }).status;
    return typeof status === 'number' ? status : undefined;
  }
  return undefined;
}

/**
 * The field issues of a refused write: an AppError's own (the server ran the write), or those of a 400 answer's
 * JSON body (the browser called /api).
 */
export function issuesOf(error: unknown): ApiErrorBody['issues'] {
  let issues: unknown;
  if (error instanceof HttpError) {
    if (error.status !== 400) return undefined;
    try {
      issues = (JSON.parse(error.body) as { issues?: unknown }).issues;
    } catch {
      return undefined;
    }
  } else if (error && typeof error === 'object' && 'issues' in error) {
    issues = error.issues;
  }
  return Array.isArray(issues) ? issues.filter(isIssue) : undefined;
}

const isIssue = (value: unknown): value is { path: string; message: string } =>
  typeof value === 'object' &&
  value !== null &&
  'path' in value &&
  'message' in value &&
  typeof value.path === 'string' &&
  typeof value.message === 'string';

/** The code of a save refused because the row changed since the form loaded it. */
export const EDIT_CONFLICT = 'edit_conflict';

/**
 * True for the 409 `edit_conflict` of a save against an older version (issue 13): the server ran the write (an
 * AppError's code) or the browser called /api (the JSON body's code).
 */
export function isEditConflict(error: unknown): boolean {
  if (statusOf(error) !== 409) return false;
  if (error instanceof HttpError) {
    try {
      return (JSON.parse(error.body) as Partial<ApiErrorBody>).code === EDIT_CONFLICT;
    } catch {
      return false;
    }
  }
  return (error as { code?: unknown }).code === EDIT_CONFLICT;
}
