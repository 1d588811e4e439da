import type { IncomingMessage, ServerResponse } from 'node:http';
import { basicCredentials, FakeHttpService, sendJson } from './http-server.js';

/**
 * A fake WordPress site speaking the REST API's wire format as observed on a real WordPress 6.1 (see
 * ../shared/design/integration-apis.md): GET /wp-json/ (index with namespaces), /wp-json/wp/v2/users/me (needs a
 * signed-in user; a wrong application password is simply anonymous), and custom post type collections with
 * page/per_page (1–100), X-WP-Total/X-WP-TotalPages and Link headers, the out-of-range page error (only when the
 * collection is not empty), modified_after, orderby/order, _fields and status (publish unless signed in).
 */

export interface FakePost {
  id: number;
  /** Rendered title: keep the HTML entities WordPress's wptexturize puts in (&#8217; &#038; &amp;). */
  title: string;
  status?: 'publish' | 'draft' | 'pending' | 'private' | 'trash' | 'future';
  /** 'YYYY-MM-DDTHH:MM:SS' in UTC, as WordPress's modified_gmt. */
  modifiedGmt?: string;
  meta?: Record<string, unknown>;
  acf?: Record<string, unknown> | false;
}

export interface FakeWordPressOptions {
  name?: string;
  description?: string;
  user?: string;
  appPassword?: string;
  posts?: Record<string, FakePost[]>;
  port?: number;
}

const wpError = (res: ServerResponse, status: number, code: string, message: string) =>
  sendJson(res, status, { code, message, data: { status } });

export class FakeWordPress extends FakeHttpService {
  name: string;
  description: string;
  user: string;
  appPassword: string;
  posts: Record<string, FakePost[]>;
  /** When set, every request is redirected to this URL's origin. */
  redirectTo?: string;

  constructor(options: FakeWordPressOptions = {}) {
    super();
    this.name = options.name ?? 'Pacer &amp; Friends';
    this.description = options.description ?? 'Runners&#8217; news &#8211; races, clubs &#038; pros';
    this.user = options.user ?? 'editor';
    this.appPassword = options.appPassword ?? 'abcd efgh ijkl mnop qrst uvwx';
    this.posts = { events: [], professionals: [], 'run-clubs': [], ...options.posts };
  }

  /** The settings that point Pacer at this site with its user's application password. */
  get env(): { WORDPRESS_URL: string; WORDPRESS_USER: string; WORDPRESS_APP_PASSWORD: string } {
    return { WORDPRESS_URL: this.url, WORDPRESS_USER: this.user, WORDPRESS_APP_PASSWORD: this.appPassword };
  }

  failNext(status: number, times = 1, headers?: Record<string, string>): void {
    this.failures.push({ status, times, headers });
  }

  /** Changes a post as an editor would: new values and a new modified time. */
  edit(restBase: string, id: number, changes: Partial<FakePost>, modifiedGmt: string): void {
    const post = this.posts[restBase]?.find((p) => p.id === id);
    if (!post) throw new Error(`no ${restBase} post ${id}`);
    Object.assign(post, changes, { meta: { ...post.meta, ...changes.meta }, modifiedGmt });
  }

  private signedIn(req: IncomingMessage): boolean {
    const credentials = basicCredentials(req);
    return Boolean(
      credentials && credentials.user === this.user && credentials.password.replace(/\s+/g, '') === this.appPassword.replace(/\s+/g, ''),
    );
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    this.requests.push(url.pathname + url.search);
    await this.answerTurn();
    if (this.redirectTo) {
      res.writeHead(302, { Location: new URL(url.pathname + url.search, this.redirectTo).toString() });
      res.end();
      return;
    }
    const failure = this.failures[0];
    if (failure) {
      if (--failure.times <= 0) this.failures.shift();
      if (failure.status === 429)
        return sendJson(res, 429, { code: 'too_many_requests', message: 'Slow down', data: { status: 429 } }, failure.headers);
      return sendJson(res, failure.status, {
        code: 'internal_server_error',
        message: '<p>There has been a critical error on this website.</p>',
        data: { status: failure.status },
      });
    }
    if (req.method !== 'GET') return wpError(res, 404, 'rest_no_route', 'No route was found matching the URL and request method.');
    const route = url.pathname.replace(/\/+$/, '') || '/';
    if (route === '/wp-json') return this.index(res);
    if (route === '/wp-json/wp/v2/users/me') {
      if (!this.signedIn(req)) return wpError(res, 401, 'rest_not_logged_in', 'You are not currently logged in.');
      return sendJson(res, 200, { id: 1, name: 'Edith Editor', slug: this.user });
    }
    const collection = /^\/wp-json\/wp\/v2\/([a-z-]+)$/.exec(route)?.[1];
    if (collection && this.posts[collection]) return this.list(req, res, url, collection);
    if (route.startsWith('/wp-json')) return wpError(res, 404, 'rest_no_route', 'No route was found matching the URL and request method.');
    res.writeHead(404, { 'Content-Type': 'text/html' });
    res.end('<html><body>Not found</body></html>');
  }

  private index(res: ServerResponse): void {
    sendJson(res, 200, {
      name: this.name,
      description: this.description,
      url: this.url,
      home: this.url,
      gmt_offset: '0',
      timezone_string: 'UTC',
      namespaces: ['oembed/1.0', 'wp/v2', 'wp-site-health/v1'],
      authentication: { 'application-passwords': { endpoints: { authorization: `${this.url}/wp-admin/authorize-application.php` } } },
      routes: {},
    });
  }

  private list(req: IncomingMessage, res: ServerResponse, url: URL, restBase: string): void {
    const q = url.searchParams;
    const page = Number(q.get('page') ?? '1');
    const perPage = Number(q.get('per_page') ?? '10');
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) {
      return sendJson(res, 400, {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): per_page',
        data: { status: 400, params: { per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' } },
      });
    }
    if (!Number.isInteger(page) || page < 1)
      return sendJson(res, 400, { code: 'rest_invalid_param', message: 'Invalid parameter(s): page', data: { status: 400 } });
    const statuses = (q.get('status') ?? 'publish').split(',');
    if (statuses.some((s) => s !== 'publish') && !this.signedIn(req)) {
      return sendJson(res, 400, {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): status',
        data: { status: 400, params: { status: 'Status is forbidden.' } },
      });
    }
    const modifiedAfter = q.get('modified_after');
    let items = (this.posts[restBase] ?? []).filter((post) => statuses.includes('any') || statuses.includes(post.status ?? 'publish'));
    if (modifiedAfter) {
      const after = Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(modifiedAfter) ? modifiedAfter : `${modifiedAfter}Z`);
      if (Number.isNaN(after))
        return sendJson(res, 400, { code: 'rest_invalid_param', message: 'Invalid parameter(s): modified_after', data: { status: 400 } });
      items = items.filter((post) => Date.parse(`${post.modifiedGmt ?? '2026-01-01T00:00:00'}Z`) > after);
    }
    const orderby = q.get('orderby') ?? 'date';
    const direction = q.get('order') === 'asc' ? 1 : -1;
    const sortKey = (post: FakePost) =>
      orderby === 'id' ? post.id : orderby === 'modified' ? Date.parse(`${post.modifiedGmt ?? '2026-01-01T00:00:00'}Z`) : post.id;
    items = [...items].sort((a, b) => (sortKey(a) - sortKey(b)) * direction);
    const total = items.length;
    const totalPages = Math.ceil(total / perPage);
    if (total > 0 && page > totalPages) {
      return wpError(res, 400, 'rest_post_invalid_page_number', 'The page number requested is larger than the number of pages available.');
    }
    const pageItems = items.slice((page - 1) * perPage, page * perPage);
    const fields = q
      .get('_fields')
      ?.split(',')
      .map((f) => f.split('.')[0]!);
    const body = pageItems.map((post) => {
      const full = this.present(restBase, post);
      return fields ? Object.fromEntries(Object.entries(full).filter(([key]) => fields.includes(key))) : full;
    });
    const links: string[] = [];
    const linkTo = (n: number) => {
      const next = new URL(url);
      next.searchParams.set('page', String(n));
      return next.toString();
    };
    if (page > 1) links.push(`<${linkTo(page - 1)}>; rel="prev"`);
    if (page < totalPages) links.push(`<${linkTo(page + 1)}>; rel="next"`);
    sendJson(res, 200, body, {
      'X-WP-Total': String(total),
      'X-WP-TotalPages': String(totalPages),
      ...(links.length ? { Link: links.join(', ') } : {}),
    });
  }

  private present(restBase: string, post: FakePost): Record<string, unknown> {
    const modified = post.modifiedGmt ?? '2026-01-01T00:00:00';
    const slug = post.title
      .toLowerCase()
      .replace(/&[^;]+;/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    const out: Record<string, unknown> = {
      id: post.id,
      date: modified,
      date_gmt: modified,
      guid: { rendered: `${this.url}/?post_type=${restBase}&p=${post.id}` },
      modified,
      modified_gmt: modified,
      slug,
      status: post.status ?? 'publish',
      type: restBase.replace(/s$/, ''),
      link: `${this.url}/${restBase}/${slug}/`,
      title: { rendered: post.title },
      content: { rendered: '', protected: false },
      featured_media: 0,
      template: '',
      // Registered meta that was never set comes back empty ("" / null / [] / false), never missing.
      meta: post.meta ?? [],
    };
    if (post.acf !== undefined) out.acf = post.acf;
    return out;
  }
}
