import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamError } from '@integrations/http.js';
import { WordPressClient } from '@integrations/wordpress/client.js';
import type { WpPost } from '@integrations/wordpress/types.js';
import { FakeWordPress, type FakePost } from '../fakes/wordpress.js';

const noSleep = async () => undefined;

function events(count: number): FakePost[] {
  return Array.from({ length: count }, (_, i) => ({ id: i + 1, title: `Race &#8211; ${i + 1}`, meta: { location_state: 'nsw' } }));
}

async function collect(client: WordPressClient, restBase: string, options = {}) {
  const pages: Array<{ page: number; totalPages: number; posts: WpPost[] }> = [];
  for await (const page of client.posts(restBase, options)) pages.push(page);
  return pages;
}

describe('WordPress client against the fake site', () => {
  let wp: FakeWordPress;
  const clientFor = (overrides: Partial<ConstructorParameters<typeof WordPressClient>[0]> = {}) =>
    new WordPressClient({ siteUrl: wp.url, user: wp.user, appPassword: wp.appPassword, timeoutMs: 2000, sleep: noSleep, ...overrides });

  beforeAll(async () => {
    wp = await new FakeWordPress({ posts: { events: events(250) } }).start();
  });
  afterAll(() => wp.close());
  afterEach(() => {
    wp.requests = [];
    wp.failures = [];
    wp.delayMs = 0;
    wp.redirectTo = undefined;
  });

  it('pages through the whole collection 100 at a time, in id order, until X-WP-TotalPages', async () => {
    const pages = await collect(clientFor(), 'events');
    expect(pages.map((p) => p.posts.length)).toEqual([100, 100, 50]);
    expect(pages.every((p) => p.totalPages === 3)).toBe(true);
    expect(pages.flatMap((p) => p.posts.map((post) => post.id))).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    expect(wp.requests).toHaveLength(3);
    expect(wp.requests[0]).toContain('per_page=100');
    expect(wp.requests[0]).toContain('orderby=id');
  });

  it('ends quietly at the out-of-range page error when posts vanish between pages', async () => {
    const iterator = clientFor().posts('events');
    const first = await iterator.next();
    expect(first.value?.totalPages).toBe(3);
    wp.posts.events!.splice(100); // an editor unpublishes posts: page 2 no longer exists
    try {
      const rest: WpPost[][] = [];
      for await (const page of { [Symbol.asyncIterator]: () => iterator }) rest.push(page.posts);
      expect(rest).toEqual([]);
      expect(wp.requests.at(-1)).toContain('page=2');
    } finally {
      wp.posts.events = events(250);
    }
  });

  it('answers an empty collection with no pages and no error', async () => {
    const pages = await collect(clientFor(), 'run-clubs');
    expect(pages).toEqual([{ posts: [], page: 1, totalPages: 1, total: 0 }]);
  });

  it('decodes HTML entities in the site name and description', async () => {
    expect(await clientFor().siteInfo()).toEqual({
      name: 'Pacer & Friends',
      url: wp.url,
      description: 'Runners’ news – races, clubs & pros',
    });
  });

  it('passes the connection test with the right application password (spaces ignored)', async () => {
    const result = await clientFor({ appPassword: wp.appPassword.replace(/\s/g, '') }).testConnection();
    expect(result.user).toBe('Edith Editor');
    expect(wp.requests.some((r) => r.startsWith('/wp-json/wp/v2/users/me'))).toBe(true);
  });

  it('fails the connection test for wrong credentials, although public reads still work anonymously', async () => {
    const client = clientFor({ appPassword: 'wrong pass word' });
    expect((await collect(client, 'events')).length).toBe(3);
    await expect(client.testConnection()).rejects.toThrow(
      /WordPress rejected the username or application password for editor: You are not currently logged in\. \(rest_not_logged_in\)/,
    );
  });

  it('fails clearly for an unreachable site', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(clientFor({ siteUrl: `http://127.0.0.1:${port}` }).testConnection()).rejects.toThrow(
      `Could not reach WordPress at http://127.0.0.1:${port}: connection refused`,
    );
  });

  it('fails clearly for a site that is not WordPress', async () => {
    const plain: Server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<html><body>Just a brochure site</body></html>');
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', () => resolve()));
    const { port } = plain.address() as AddressInfo;
    try {
      await expect(clientFor({ siteUrl: `http://127.0.0.1:${port}` }).testConnection()).rejects.toThrow(
        /does not look like a WordPress site/,
      );
    } finally {
      plain.close();
    }
  });

  it('times out a stalled answer within the configured time and does not retry it', async () => {
    // No answer comes until the client has given up, so only its own timer can end the request.
    const release = wp.holdAnswers();
    try {
      const error = await clientFor({ timeoutMs: 200 })
        .siteInfo()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as UpstreamError).failure).toBe('timeout');
      expect((error as UpstreamError).message).toMatch(/did not answer within 200 ms/);
      expect(wp.requests).toHaveLength(1);
    } finally {
      release();
    }
  });

  it('retries 429 and 5xx with backoff, then succeeds', async () => {
    wp.failNext(429, 2, { 'Retry-After': '0' });
    wp.failNext(503, 1);
    const delays: number[] = [];
    const client = clientFor({ sleep: async (ms) => void delays.push(ms) });
    const pages = await collect(client, 'events');
    expect(pages).toHaveLength(3);
    expect(delays).toHaveLength(3);
    expect(wp.requests.filter((r) => r.includes('page=1&'))).toHaveLength(4);
  });

  it('gives up after the retry budget (at most 4 attempts) and never retries another 4xx', async () => {
    wp.failNext(500, 10);
    await expect(clientFor().siteInfo()).rejects.toThrow(/does not look like a WordPress site/);
    expect(wp.requests).toHaveLength(4);
    wp.failures = [];
    wp.requests = [];
    await expect(collect(clientFor(), 'no-such-type')).rejects.toThrow(/404.*rest_no_route/);
    expect(wp.requests).toHaveLength(1);
  });

  it('refuses a redirect to another host (e.g. a metadata address) without following it', async () => {
    let hits = 0;
    const elsewhere = createServer((_req, res) => {
      hits++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.2', () => resolve()));
    const { port } = elsewhere.address() as AddressInfo;
    wp.redirectTo = `http://127.0.0.2:${port}`;
    try {
      await expect(clientFor().siteInfo()).rejects.toThrow(/redirected to another host \(127\.0\.0\.2:\d+\); the redirect was refused/);
      expect(hits).toBe(0);
    } finally {
      elsewhere.close();
    }
  });

  it('only asks for posts modified after the given instant', async () => {
    wp.posts.events!.forEach((post, i) => (post.modifiedGmt = i < 245 ? '2026-01-01T00:00:00' : '2026-11-20T12:00:00'));
    const pages = await collect(clientFor(), 'events', { modifiedAfter: '2026-11-01T00:00:00.000Z' });
    expect(pages.flatMap((p) => p.posts.map((post) => post.id))).toEqual([246, 247, 248, 249, 250]);
    expect(wp.requests[0]).toContain('modified_after=2026-11-01T00%3A00%3A00.000Z');
  });
});
