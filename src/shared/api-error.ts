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
  if (error instanceof HttpError) {
    if (error.status !== 400) return undefined;
    try {
      const issues = (JSON.parse(error.body) as Partial<ApiErrorBody>).issues;
      return Array.isArray(issues) ? issues : undefined;
    } catch {
      return undefined;
    }
  }
  if (error && typeof error === 'object' && 'issues' in error && Array.isArray(error.issues)) return error.issues as ApiErrorBody['issues'];
  return undefined;
}
