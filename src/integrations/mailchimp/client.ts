import { createHash } from 'node:crypto';
import {
  basicAuth,
  httpRequest,
  Limiter,
  parseJson,
  UpstreamError,
  type HttpOptions,
  type HttpResponse,
  type RetryPolicy,
} from '../http.js';
import type { MailchimpAccount, MailchimpAudience } from '@shared/schemas/integrations.js';

/** Mailchimp's error document (application/problem+json). */
export interface MailchimpProblem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  instance?: string;
  errors?: Array<{ field?: string; message?: string }>;
}

/** A Mailchimp error answer, with a readable message built from title, detail and field errors. */
export class MailchimpError extends UpstreamError {
  constructor(
    status: number,
    public readonly problem: MailchimpProblem,
  ) {
    super('http', readableProblem(status, problem), status, problem);
    this.name = 'MailchimpError';
  }

  get title(): string | undefined {
    return this.problem.title;
  }
}

export function readableProblem(status: number, problem: MailchimpProblem): string {
  const title = problem.title ?? `HTTP ${status}`;
  const fieldErrors = (problem.errors ?? []).map((e) => [e.field, e.message].filter(Boolean).join(': ')).filter(Boolean);
  // "Invalid Resource" details only say "see the errors array", so the field errors replace them.
  const detail = fieldErrors.length ? fieldErrors.join('; ') : problem.detail;
  return detail ? `${title}: ${detail}` : title;
}

export interface MailchimpMember {
  id: string;
  email_address: string;
  status: string;
  merge_fields?: Record<string, unknown>;
  tags?: Array<{ id?: number; name: string }>;
}

export interface MemberDetails {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
}

export interface MailchimpClientOptions {
  apiKey: string;
  /** Overrides the data-centre URL, e.g. http://127.0.0.1:4010/3.0 for the fake. */
  baseUrl?: string;
  timeoutMs: number;
  retry?: Partial<RetryPolicy>;
  sleep?: (ms: number) => Promise<void>;
  /** Requests in flight at once; Mailchimp allows 10 per API key. */
  maxInFlight?: number;
  /** Audiences per page when listing them all. */
  pageSize?: number;
}

const SERVICE = 'Mailchimp';
const MAILCHIMP_MAX_IN_FLIGHT = 10;

/** "…-us10" → https://us10.api.mailchimp.com/3.0 */
export function mailchimpBaseUrl(apiKey: string): string {
  const dc = /-([a-z]+\d+)$/i.exec(apiKey.trim())?.[1];
  if (!dc) throw new UpstreamError('http', 'MAILCHIMP_API_KEY has no data-centre suffix (it should end in something like -us10)');
  return `https://${dc.toLowerCase()}.api.mailchimp.com/3.0`;
}

/** Mailchimp's subscriber hash: MD5 of the lower-cased address. */
export function subscriberHash(email: string): string {
  return createHash('md5').update(email.trim().toLowerCase()).digest('hex');
}

/**
 * A thin typed client for the Mailchimp Marketing API v3 (see docs/decisions/0040-own-http-clients.md for why
 * not the official package). One limiter per client keeps at most 10 requests in flight.
 */
export class MailchimpClient {
  private readonly http: HttpOptions;
  private readonly base: string;

  constructor(private readonly options: MailchimpClientOptions) {
    this.base = (options.baseUrl ?? mailchimpBaseUrl(options.apiKey)).replace(/\/+$/, '');
    this.http = {
      baseUrl: this.base,
      timeoutMs: options.timeoutMs,
      retry: options.retry,
      sleep: options.sleep,
      limiter: new Limiter(Math.min(options.maxInFlight ?? MAILCHIMP_MAX_IN_FLIGHT, MAILCHIMP_MAX_IN_FLIGHT)),
      headers: { Authorization: basicAuth('pacer', options.apiKey) },
      serviceName: SERVICE,
    };
  }

  private url(path: string, query: Record<string, string | number | undefined> = {}): URL {
    const url = new URL(`${this.base}${path}`);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
    return url;
  }

  private async call<T>(
    method: string,
    path: string,
    options: { query?: Record<string, string | number | undefined>; body?: unknown } = {},
  ): Promise<T> {
    const response = await httpRequest(this.http, this.url(path, options.query), { method, body: options.body });
    if (response.status >= 400) throw this.errorFor(response);
    if (response.status === 204 || response.text === '') return undefined as T;
    return parseJson(response, SERVICE) as T;
  }

  private errorFor(response: HttpResponse): MailchimpError {
    let problem: MailchimpProblem = {};
    try {
      const parsed = JSON.parse(response.text) as unknown;
      if (parsed && typeof parsed === 'object') problem = parsed as MailchimpProblem;
    } catch {
      // Throttling answers (429/403) may come with no JSON body at all.
    }
    if (!problem.title && response.status === 429)
      problem = { ...problem, title: 'Too Many Requests', detail: 'Mailchimp is throttling requests; try again shortly.' };
    return new MailchimpError(response.status, problem);
  }

  ping(): Promise<{ health_status: string }> {
    return this.call('GET', '/ping');
  }

  async account(): Promise<MailchimpAccount> {
    const root = await this.call<Record<string, unknown>>('GET', '/', {
      query: { fields: 'account_name,email,account_industry,total_subscribers' },
    });
    return {
      account_name: String(root.account_name ?? ''),
      email: String(root.email ?? ''),
      industry: String(root.account_industry ?? ''),
      total_subscribers: Number(root.total_subscribers ?? 0),
    };
  }

  /** Every audience, following count/offset until total_items. */
  async audiences(): Promise<MailchimpAudience[]> {
    const count = this.options.pageSize ?? 100;
    const all: MailchimpAudience[] = [];
    for (let offset = 0; ; offset += count) {
      const page = await this.call<{ lists?: MailchimpAudience[]; total_items?: number }>('GET', '/lists', {
        query: { count, offset, fields: 'lists.id,lists.name,lists.stats.member_count,total_items' },
      });
      const lists = page.lists ?? [];
      for (const list of lists) all.push({ id: list.id, name: list.name, stats: { member_count: Number(list.stats?.member_count ?? 0) } });
      if (lists.length === 0 || offset + count >= Number(page.total_items ?? 0)) return all;
    }
  }

  /** The member, or null when the address is not in the audience. */
  async findMember(audienceId: string, email: string): Promise<MailchimpMember | null> {
    try {
      return await this.call<MailchimpMember>('GET', `/lists/${encodeURIComponent(audienceId)}/members/${subscriberHash(email)}`, {
        query: { fields: 'id,email_address,status' },
      });
    } catch (error) {
      // An unknown audience is a 404 too; the upsert that follows then reports it.
      if (error instanceof MailchimpError && error.status === 404) return null;
      throw error;
    }
  }

  /**
   * Adds or updates a member without ever changing an existing member's status: `status_if_new` applies only to
   * new addresses, so someone who unsubscribed stays unsubscribed.
   */
  upsertMember(audienceId: string, member: MemberDetails): Promise<MailchimpMember> {
    const merge: Record<string, string> = {};
    if (member.firstName) merge.FNAME = member.firstName;
    if (member.lastName) merge.LNAME = member.lastName;
    if (member.phone) merge.PHONE = member.phone;
    return this.call<MailchimpMember>('PUT', `/lists/${encodeURIComponent(audienceId)}/members/${subscriberHash(member.email)}`, {
      body: { email_address: member.email.trim(), status_if_new: 'subscribed', merge_fields: merge },
    });
  }

  /** Adds tags (active) to a member; Mailchimp answers 204 with no body. */
  async addTags(audienceId: string, email: string, tags: readonly string[]): Promise<void> {
    if (tags.length === 0) return;
    await this.call<void>('POST', `/lists/${encodeURIComponent(audienceId)}/members/${subscriberHash(email)}/tags`, {
      body: { tags: tags.map((name) => ({ name, status: 'active' })) },
    });
  }

  /** POST …/members: creates only, answering 400 "Member Exists" for a known address. */
  createMember(audienceId: string, member: MemberDetails & { status: 'subscribed' | 'pending' }): Promise<MailchimpMember> {
    return this.call<MailchimpMember>('POST', `/lists/${encodeURIComponent(audienceId)}/members`, {
      body: {
        email_address: member.email.trim(),
        status: member.status,
        merge_fields: { FNAME: member.firstName ?? '', LNAME: member.lastName ?? '' },
      },
    });
  }
}
