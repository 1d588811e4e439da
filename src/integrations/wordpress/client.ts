import { basicAuth, httpRequest, parseJson, UpstreamError, type HttpOptions, type HttpResponse, type RetryPolicy } from '../http.js';
import { plainText } from './map-post.js';
import type { WpErrorBody, WpPost } from './types.js';
import type { WpSiteInfo } from '@shared/schemas/integrations.js';

export interface WordPressClientOptions {
  /** The site's address, e.g. https://example.org (or https://example.org/blog). */
  siteUrl: string;
  user?: string;
  appPassword?: string;
  timeoutMs: number;
  retry?: Partial<RetryPolicy>;
  sleep?: (ms: number) => Promise<void>;
}

export interface ListOptions {
  /** ISO-8601 instant: only posts modified after it (WordPress ≥ 5.7). */
  modifiedAfter?: string;
  perPage?: number;
  /** Restrict the returned fields (`_fields`). */
  fields?: string[];
}

const SERVICE = 'WordPress';

/** WordPress's own error text, e.g. "rest_not_logged_in: You are not currently logged in." */
function wpErrorText(response: HttpResponse): string {
  try {
    const body = JSON.parse(response.text) as WpErrorBody;
    if (body && typeof body.message === 'string') return body.code ? `${plainText(body.message)} (${body.code})` : plainText(body.message);
  } catch {
    // not JSON: fall through to the status
  }
  return `HTTP ${response.status}`;
}

function wpErrorCode(response: HttpResponse): string | undefined {
  try {
    return (JSON.parse(response.text) as WpErrorBody).code;
  } catch {
    return undefined;
  }
}

/**
 * A typed client for the WordPress REST API (wp/v2), authenticated with an Application Password over HTTP
 * Basic. Public reads work anonymously, so only `testConnection` proves the credentials.
 */
export class WordPressClient {
  private readonly http: HttpOptions;
  private readonly root: string;

  constructor(private readonly options: WordPressClientOptions) {
    this.root = options.siteUrl.replace(/\/+$/, '');
    const headers: Record<string, string> = {};
    // Application Passwords are shown with spaces for readability; WordPress ignores them.
    if (options.user && options.appPassword) headers.Authorization = basicAuth(options.user, options.appPassword.replace(/\s+/g, ''));
    this.http = {
      baseUrl: this.root,
      timeoutMs: options.timeoutMs,
      retry: options.retry,
      sleep: options.sleep,
      headers,
      serviceName: SERVICE,
    };
  }

  get siteUrl(): string {
    return this.root;
  }

  restUrl(route: string, query: Record<string, string | number | undefined> = {}): URL {
    const url = new URL(`${this.root}/wp-json${route}`);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
    return url;
  }

  private async getJson(
    route: string,
    query: Record<string, string | number | undefined> = {},
  ): Promise<{ response: HttpResponse; body: unknown }> {
    const response = await httpRequest(this.http, this.restUrl(route, query));
    if (response.status >= 400) {
      throw new UpstreamError(
        'http',
        `${SERVICE} answered ${response.status} for ${route}: ${wpErrorText(response)}`,
        response.status,
        wpErrorCode(response),
      );
    }
    return { response, body: parseJson(response, SERVICE) };
  }

  /** GET /wp-json/: fails with a clear message when the address is not a WordPress site. */
  async siteInfo(): Promise<WpSiteInfo> {
    let result: { response: HttpResponse; body: unknown };
    try {
      result = await this.getJson('/');
    } catch (error) {
      if (error instanceof UpstreamError && (error.failure === 'http' || error.failure === 'invalid_response')) throw this.notWordPress();
      throw error;
    }
    const body = result.body as Partial<Record<string, unknown>>;
    if (!body || typeof body !== 'object' || !Array.isArray(body.namespaces) || !(body.namespaces as unknown[]).includes('wp/v2'))
      throw this.notWordPress();
    return {
      name: plainText(String(body.name ?? '')),
      url: String(body.url ?? body.home ?? this.root),
      description: plainText(String(body.description ?? '')),
    };
  }

  private notWordPress(): UpstreamError {
    return new UpstreamError(
      'invalid_response',
      `${this.root} does not look like a WordPress site: /wp-json/ did not answer with the WordPress REST API`,
    );
  }

  /**
   * Proves the site is WordPress and the credentials work: /users/me needs a signed-in user, whereas public
   * reads answer anonymously even with a wrong password.
   */
  async testConnection(): Promise<{ site: WpSiteInfo; user: string }> {
    if (!this.options.user || !this.options.appPassword) {
      throw new UpstreamError('http', 'WORDPRESS_USER and WORDPRESS_APP_PASSWORD must be set to sign in to the content website');
    }
    const site = await this.siteInfo();
    const response = await httpRequest(this.http, this.restUrl('/wp/v2/users/me', { context: 'view', _fields: 'id,name,slug' }));
    if (response.status === 401 || response.status === 403) {
      throw new UpstreamError(
        'http',
        `WordPress rejected the username or application password for ${this.options.user}: ${wpErrorText(response)}`,
        response.status,
      );
    }
    if (response.status >= 400)
      throw new UpstreamError(
        'http',
        `WordPress answered ${response.status} for /wp/v2/users/me: ${wpErrorText(response)}`,
        response.status,
      );
    const me = parseJson(response, SERVICE) as { name?: string; slug?: string };
    return { site, user: plainText(String(me.name ?? me.slug ?? this.options.user)) };
  }

  /**
   * Every published post of a type, a page (≤100 posts) at a time, in id order so pages stay stable while
   * editors work. Stops at X-WP-TotalPages, or at WordPress's out-of-range page error.
   */
  async *posts(
    restBase: string,
    options: ListOptions = {},
  ): AsyncGenerator<{ posts: WpPost[]; page: number; totalPages: number; total: number }> {
    const perPage = options.perPage ?? 100;
    for (let page = 1; ; page++) {
      let result: { response: HttpResponse; body: unknown };
      try {
        result = await this.getJson(`/wp/v2/${restBase}`, {
          page,
          per_page: perPage,
          orderby: 'id',
          order: 'asc',
          modified_after: options.modifiedAfter,
          _fields: options.fields?.join(','),
        });
      } catch (error) {
        if (error instanceof UpstreamError && error.status === 400 && error.body === 'rest_post_invalid_page_number') return;
        throw error;
      }
      if (!Array.isArray(result.body)) {
        throw new UpstreamError(
          'invalid_response',
          `WordPress did not answer a list for /wp/v2/${restBase}; is the post type registered with show_in_rest and rest_base '${restBase}'?`,
        );
      }
      const totalPages = Number(result.response.headers.get('x-wp-totalpages') ?? '1') || 1;
      const total = Number(result.response.headers.get('x-wp-total') ?? result.body.length) || 0;
      yield { posts: result.body as WpPost[], page, totalPages, total };
      if (page >= totalPages || result.body.length === 0) return;
    }
  }
}
