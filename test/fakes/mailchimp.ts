import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basicCredentials, FakeHttpService, readBody, sendJson } from './http-server.js';

/**
 * A fake Mailchimp Marketing API v3 (base path /3.0): Basic auth with the API key as password, /ping, the
 * account root, /lists with count/offset, members by subscriber hash (GET, PUT upsert honouring status_if_new,
 * POST answering 400 "Member Exists"), tags (204, empty body) and problem+json errors. Like the real service it
 * answers 429 once more than 10 requests are in flight.
 */

export interface FakeMember {
  email_address: string;
  status: 'subscribed' | 'unsubscribed' | 'cleaned' | 'pending' | 'transactional';
  merge_fields: Record<string, string>;
  tags: string[];
}

export interface FakeAudience {
  id: string;
  name: string;
  members: Map<string, FakeMember>;
}

const md5 = (email: string) => createHash('md5').update(email.trim().toLowerCase()).digest('hex');

const PROBLEM_TYPE = 'https://mailchimp.com/developer/marketing/docs/errors/';
const CONCURRENCY_LIMIT = 10;

export class FakeMailchimp extends FakeHttpService {
  apiKey: string;
  audiences = new Map<string, FakeAudience>();
  account = {
    account_name: 'Pacer Running Co',
    email: 'owner@pacer.example',
    account_industry: 'Sports',
    first_name: 'Pat',
    last_name: 'Owner',
  };
  inFlight = 0;
  peakInFlight = 0;
  private sequence = 0;

  constructor(options: { apiKey?: string } = {}) {
    super();
    this.apiKey = options.apiKey ?? 'fakekey0123456789abcdef0123456789-us10';
  }

  /** The settings that point Pacer at this account. */
  get env(): { MAILCHIMP_API_KEY: string; MAILCHIMP_BASE_URL: string } {
    return { MAILCHIMP_API_KEY: this.apiKey, MAILCHIMP_BASE_URL: this.baseUrl };
  }

  get baseUrl(): string {
    return `${this.url}/3.0`;
  }

  addAudience(name: string, id = `aud${++this.sequence}${name.length}`): FakeAudience {
    const audience = { id, name, members: new Map<string, FakeMember>() };
    this.audiences.set(id, audience);
    return audience;
  }

  addMember(audienceId: string, member: Partial<FakeMember> & { email_address: string }): void {
    this.audiences.get(audienceId)!.members.set(md5(member.email_address), { status: 'subscribed', merge_fields: {}, tags: [], ...member });
  }

  member(audienceId: string, email: string): FakeMember | undefined {
    return this.audiences.get(audienceId)?.members.get(md5(email));
  }

  failNext(status: number, times = 1, body?: unknown): void {
    this.failures.push({ status, times, body });
  }

  private problem(res: ServerResponse, status: number, title: string, detail: string, extra: Record<string, unknown> = {}): void {
    const instance = createHash('sha1').update(`${Date.now()}${Math.random()}`).digest('hex').slice(0, 32);
    sendJson(
      res,
      status,
      { type: PROBLEM_TYPE, title, status, detail, instance, ...extra },
      { 'X-Request-Id': instance, Link: '<https://us10.api.mailchimp.com/schema/3.0/ProblemDetailDocument.json>; rel="describedBy"' },
      'application/problem+json; charset=utf-8',
    );
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.inFlight++;
    this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
    try {
      const url = new URL(req.url ?? '/', this.url);
      this.requests.push(`${req.method} ${url.pathname}${url.search}`);
      await this.answerTurn();
      if (this.inFlight > CONCURRENCY_LIMIT)
        return this.problem(res, 429, 'Too Many Requests', 'You have exceeded the limit of 10 simultaneous connections.');
      const failure = this.failures[0];
      if (failure) {
        if (--failure.times <= 0) this.failures.shift();
        if (failure.body === undefined && failure.status === 429)
          return this.problem(res, 429, 'Too Many Requests', 'You have exceeded the limit of 10 simultaneous connections.');
        if (failure.body === '') {
          res.writeHead(failure.status);
          res.end();
          return;
        }
        return this.problem(
          res,
          failure.status,
          'Internal Server Error',
          'An unexpected internal error has occurred.',
          (failure.body ?? {}) as Record<string, unknown>,
        );
      }
      const credentials = basicCredentials(req);
      if (!credentials || credentials.password !== this.apiKey) {
        return this.problem(
          res,
          401,
          'API Key Invalid',
          "Your API key may be invalid, or you've attempted to access the wrong datacenter.",
        );
      }
      await this.route(req, res, url);
    } finally {
      this.inFlight--;
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname.replace(/\/+$/, '');
    const method = req.method ?? 'GET';
    if (path === '/3.0/ping' && method === 'GET') return sendJson(res, 200, { health_status: "Everything's Chimpy!" });
    if (path === '/3.0' && method === 'GET') {
      const total = [...this.audiences.values()].reduce(
        (sum, a) => sum + [...a.members.values()].filter((m) => m.status === 'subscribed').length,
        0,
      );
      return sendJson(res, 200, {
        account_id: 'acc123',
        login_id: 'login1',
        ...this.account,
        role: 'owner',
        pricing_plan_type: 'monthly',
        total_subscribers: total,
        _links: [],
      });
    }
    if (path === '/3.0/lists' && method === 'GET') {
      const count = Math.min(Number(url.searchParams.get('count') ?? '10'), 1000);
      const offset = Number(url.searchParams.get('offset') ?? '0');
      const all = [...this.audiences.values()];
      return sendJson(res, 200, {
        lists: all.slice(offset, offset + count).map((a) => this.presentAudience(a)),
        total_items: all.length,
        constraints: { may_create: true, max_instances: 5, current_total_instances: all.length },
        _links: [],
      });
    }
    const listMatch = /^\/3\.0\/lists\/([^/]+)(?:\/members(?:\/([^/]+)(\/tags)?)?)?$/.exec(path);
    if (!listMatch) return this.problem(res, 404, 'Resource Not Found', 'The requested resource could not be found.');
    const [, listId, hash, tags] = listMatch;
    const audience = this.audiences.get(decodeURIComponent(listId!));
    if (!audience) return this.problem(res, 404, 'Resource Not Found', 'The requested resource could not be found.');
    if (!path.includes('/members'))
      return method === 'GET'
        ? sendJson(res, 200, this.presentAudience(audience))
        : this.problem(res, 405, 'Method Not Allowed', 'The requested method and resource are not compatible.');

    if (!hash) {
      if (method !== 'POST') return this.problem(res, 405, 'Method Not Allowed', 'The requested method and resource are not compatible.');
      const body = (await readBody(req)) as Partial<FakeMember> | undefined;
      const invalid = this.invalid(res, body?.email_address);
      if (invalid) return;
      const key = md5(body!.email_address!);
      if (audience.members.has(key)) {
        return this.problem(
          res,
          400,
          'Member Exists',
          `${body!.email_address} is already a list member. Use PUT to insert or update list members.`,
        );
      }
      const member: FakeMember = {
        email_address: body!.email_address!,
        status: body!.status ?? 'subscribed',
        merge_fields: body!.merge_fields ?? {},
        tags: [],
      };
      audience.members.set(key, member);
      return sendJson(res, 200, this.presentMember(member));
    }

    const existing = audience.members.get(hash);
    if (tags) {
      if (method !== 'POST') return this.problem(res, 405, 'Method Not Allowed', 'The requested method and resource are not compatible.');
      if (!existing) return this.problem(res, 404, 'Resource Not Found', 'The requested resource could not be found.');
      const body = (await readBody(req)) as { tags?: Array<{ name: string; status: string }> } | undefined;
      for (const tag of body?.tags ?? []) {
        if (tag.status === 'active' && !existing.tags.includes(tag.name)) existing.tags.push(tag.name);
        if (tag.status === 'inactive') existing.tags = existing.tags.filter((name) => name !== tag.name);
      }
      res.writeHead(204);
      res.end();
      return;
    }
    if (method === 'GET') {
      if (!existing) return this.problem(res, 404, 'Resource Not Found', 'The requested resource could not be found.');
      return sendJson(res, 200, this.presentMember(existing));
    }
    if (method === 'PUT') {
      const body = (await readBody(req)) as (Partial<FakeMember> & { status_if_new?: FakeMember['status'] }) | undefined;
      if (!existing) {
        if (this.invalid(res, body?.email_address)) return;
        if (md5(body!.email_address!) !== hash)
          return this.problem(res, 400, 'Invalid Resource', 'The email address does not match the subscriber hash.');
        const status = body!.status ?? body!.status_if_new;
        if (!status)
          return this.problem(
            res,
            400,
            'Invalid Resource',
            "The resource submitted could not be validated. For field-specific details, see the 'errors' array.",
            { errors: [{ field: 'status_if_new', message: 'Required for new members' }] },
          );
        const member: FakeMember = { email_address: body!.email_address!, status, merge_fields: body!.merge_fields ?? {}, tags: [] };
        audience.members.set(hash, member);
        return sendJson(res, 200, this.presentMember(member));
      }
      if (body?.status) existing.status = body.status;
      existing.merge_fields = { ...existing.merge_fields, ...body?.merge_fields };
      return sendJson(res, 200, this.presentMember(existing));
    }
    return this.problem(res, 405, 'Method Not Allowed', 'The requested method and resource are not compatible.');
  }

  /** Mailchimp's field validation: "Invalid Resource" with an errors array. */
  private invalid(res: ServerResponse, email: unknown): boolean {
    if (typeof email === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return false;
    this.problem(
      res,
      400,
      'Invalid Resource',
      "The resource submitted could not be validated. For field-specific details, see the 'errors' array.",
      {
        errors: [{ field: 'email_address', message: 'This value should be a valid email.' }],
      },
    );
    return true;
  }

  private presentAudience(audience: FakeAudience) {
    const members = [...audience.members.values()];
    return {
      id: audience.id,
      web_id: 1,
      name: audience.name,
      stats: {
        member_count: members.filter((m) => m.status === 'subscribed').length,
        unsubscribe_count: members.filter((m) => m.status === 'unsubscribed').length,
        cleaned_count: members.filter((m) => m.status === 'cleaned').length,
      },
    };
  }

  private presentMember(member: FakeMember) {
    return {
      id: md5(member.email_address),
      email_address: member.email_address,
      status: member.status,
      merge_fields: member.merge_fields,
      tags: member.tags.map((name, i) => ({ id: i + 1, name })),
    };
  }
}
