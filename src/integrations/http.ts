/**
 * The one outgoing-HTTP path for third-party services (security checklist items 17 and 18): every attempt has
 * its own AbortSignal timeout, 429 and 5xx are retried with capped exponential backoff and full jitter (other
 * 4xx never are), redirects are handled by hand so a redirect to another host is refused, and an optional
 * limiter caps requests in flight.
 */

export type UpstreamFailure = 'timeout' | 'unreachable' | 'redirect' | 'http' | 'invalid_response';

/** A failed call to a third-party service, with what went wrong in words a person can act on. */
export class UpstreamError extends Error {
  constructor(
    public readonly failure: UpstreamFailure,
    message: string,
    public readonly status?: number,
    public readonly body?: unknown,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

export interface RetryPolicy {
  /** Attempts after the first one. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { retries: 3, baseDelayMs: 300, maxDelayMs: 5000 };

export interface HttpOptions {
  /** The service's base URL; requests and same-host redirects must stay on its host. */
  baseUrl: string;
  timeoutMs: number;
  retry?: Partial<RetryPolicy>;
  headers?: Record<string, string>;
  limiter?: Limiter;
  /** For tests: waits between retries. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** The service's name in messages ("WordPress", "Mailchimp"). */
  serviceName: string;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
  url: string;
}

export interface RequestInitLite {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

const MAX_SAME_HOST_REDIRECTS = 3;

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Caps concurrent work (Mailchimp allows 10 connections per API key). */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(public readonly max: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number, retryAfterSeconds?: number): number {
  if (retryAfterSeconds !== undefined && Number.isFinite(retryAfterSeconds) && retryAfterSeconds >= 0) {
    return Math.min(retryAfterSeconds * 1000, policy.maxDelayMs);
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  // Full jitter spreads retries of many clients apart; never below a small floor so a retry is not immediate.
  return Math.max(Math.round(ceiling * random()), Math.min(50, ceiling));
}

const formatDuration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`);

const retryable = (status: number) => status === 429 || status >= 500;

function describeNetworkError(error: unknown, options: HttpOptions, url: URL): UpstreamError {
  const name = (error as { name?: string }).name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new UpstreamError(
      'timeout',
      `${options.serviceName} did not answer within ${formatDuration(options.timeoutMs)} (${url.origin})`,
    );
  }
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? '';
  const reason =
    code === 'ECONNREFUSED'
      ? 'connection refused'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'the host name does not resolve'
        : code === 'ECONNRESET'
          ? 'the connection was reset'
          : (cause?.message ?? (error instanceof Error ? error.message : String(error)));
  return new UpstreamError('unreachable', `Could not reach ${options.serviceName} at ${url.origin}: ${reason}`);
}

/** One HTTP exchange with retries, timeouts, the redirect rule and the limiter. */
export async function httpRequest(options: HttpOptions, target: URL, init: RequestInitLite = {}): Promise<HttpResponse> {
  const policy = { ...defaultRetryPolicy, ...options.retry };
  const sleep = options.sleep ?? sleepFor;
  const random = options.random ?? Math.random;
  const allowedHost = new URL(options.baseUrl).host;
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers, ...init.headers };
  const body = init.body === undefined ? undefined : JSON.stringify(init.body);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (target.host !== allowedHost) {
    throw new UpstreamError('redirect', `Refused to call ${target.host}: only ${allowedHost} is configured for ${options.serviceName}`);
  }

  const attemptOnce = async (url: URL): Promise<HttpResponse> => {
    let current = url;
    for (let hop = 0; ; hop++) {
      const signal = AbortSignal.timeout(options.timeoutMs);
      let response: Response;
      let text: string;
      try {
        response = await fetch(current, { method, headers, body, redirect: 'manual', signal });
        // The body is read under the same deadline: a server that sends headers and then stalls is cut off too.
        text = await response.text();
      } catch (error) {
        throw describeNetworkError(error, options, current);
      }
      if (response.status < 300 || response.status >= 400)
        return { status: response.status, headers: response.headers, text, url: current.toString() };
      const location = response.headers.get('location');
      if (!location) return { status: response.status, headers: response.headers, text, url: current.toString() };
      const next = new URL(location, current);
      if (next.host !== allowedHost) {
        throw new UpstreamError(
          'redirect',
          `${options.serviceName} redirected to another host (${next.host}); the redirect was refused`,
          response.status,
        );
      }
      if ((method !== 'GET' && method !== 'HEAD') || hop >= MAX_SAME_HOST_REDIRECTS) {
        throw new UpstreamError(
          'redirect',
          `${options.serviceName} answered with a redirect (${response.status}) that was not followed`,
          response.status,
        );
      }
      current = next;
    }
  };

  for (let attempt = 0; ; attempt++) {
    const result = options.limiter ? await options.limiter.run(() => attemptOnce(target)) : await attemptOnce(target);
    if (!retryable(result.status) || attempt >= policy.retries) return result;
    const retryAfter = result.headers.get('retry-after');
    await sleep(backoffDelay(attempt, policy, random, retryAfter === null ? undefined : Number(retryAfter)));
  }
}

export function parseJson(response: HttpResponse, serviceName: string): unknown {
  try {
    return JSON.parse(response.text);
  } catch {
    throw new UpstreamError(
      'invalid_response',
      `${serviceName} answered ${response.status} with something that is not JSON`,
      response.status,
    );
  }
}

export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}
