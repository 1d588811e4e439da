import { data, redirectDocument, type LoaderFunctionArgs } from 'react-router';
import { HttpError, messageOf, statusOf } from '../../src/shared/api-error.js';
import type { SessionInfo } from '../../src/shared/session.js';
import { apiRequest } from './http.js';

/**
 * What route loaders read through. On the server it calls the /api read handlers in-process; in the browser it
 * fetches the same paths. Both give the same presenter output, so hydration never sees a different shape.
 */
export interface DataSource {
  session(): Promise<SessionInfo>;
  get<T>(path: string): Promise<T>;
}

export interface ServerLoaderContext {
  dataSource: DataSource;
  signedIn: boolean;
}

function isServerContext(context: unknown): context is ServerLoaderContext {
  return typeof context === 'object' && context !== null && 'dataSource' in context;
}

const browserDataSource: DataSource = {
  session: () => apiRequest<SessionInfo>('GET', '/api/session'),
  async get<T>(path: string) {
    try {
      return await apiRequest<T>('GET', path);
    } catch (error) {
      // The session ended while the page was open: reload, and the server shows the sign-in screen at this URL.
      if (error instanceof HttpError && error.status === 401) throw redirectDocument(window.location.pathname + window.location.search);
      throw error;
    }
  },
};

export function dataSource(context: unknown): DataSource {
  return isServerContext(context) ? context.dataSource : browserDataSource;
}

/**
 * Wraps a page loader behind the access gate. Signed out, the root renders only the sign-in screen, so on the
 * server the page's data is never read (and its component never renders: the null is never seen).
 */
export function gated<T>(loader: (args: LoaderFunctionArgs) => Promise<T>) {
  return async (args: LoaderFunctionArgs): Promise<T> => {
    if (isServerContext(args.context) && !args.context.signedIn) return null as T;
    try {
      return await loader(args);
    } catch (error) {
      // A read the API refused as the caller's fault (a 4xx) is that status on the page too, with the API's
      // message, never the 500 page.
      const status = statusOf(error);
      if (status !== undefined && status >= 400 && status < 500) throw data(messageOf(error, 'The page could not be loaded'), { status });
      throw error;
    }
  };
}

/**
 * Page data whose subject does not exist: the page still renders its not-found view, but the answer says 404, as
 * the API's does. react-router unwraps the value on the server and in the browser, so the page sees only `value`.
 */
export function notFoundWhen<T>(missing: boolean, value: T): T {
  return missing ? (data(value, { status: 404 }) as unknown as T) : value;
}

/** "/events?q=x" keeps only the params that are set, so URLs stay short and stable. */
export function withQuery(path: string, params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
