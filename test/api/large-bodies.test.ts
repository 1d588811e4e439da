import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@services/users/service.js';
import { largeBodiesInProgress } from '@api/imports/large-bodies.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app.js';
import { waitUntil } from '../helpers/wait.js';

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { message?: string; id?: number };
}

/**
 * The real app on a real port: large job bodies held open half-sent by raw sockets (a client library would send
 * the whole body), so the bound on large bodies read at once can be seen from the answers of the next ones.
 */
describe('large job bodies read at once', () => {
  let t: TestApp;
  let server: http.Server;
  let port: number;
  const cookies = new Map<string, string>();
  const held: net.Socket[] = [];

  const origin = () => `http://127.0.0.1:${port}`;

  beforeAll(async () => {
    t = await createTestApp();
    server = http.createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    for (const name of ['ann', 'ben', 'cat']) {
      const email = `${name}@example.org`;
      await createUser(t.ctx, { email, password: TEST_PASSWORD, firstName: name, lastName: 'Staff' });
      const login = await fetch(`${origin()}/api/login`, {
        method: 'POST',
        headers: { Origin: origin(), 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password: TEST_PASSWORD }),
      });
      expect(login.status).toBe(200);
      cookies.set(
        name,
        login.headers
          .getSetCookie()
          .map((c) => c.split(';')[0])
          .join('; '),
      );
    }
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  /** Starts a 40 MB job body and sends only its first bytes; resolves once the server is reading it (no answer yet). */
  async function holdLargeBody(user: string): Promise<net.Socket> {
    const before = largeBodiesInProgress();
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(
      [
        'POST /api/jobs HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        `Origin: ${origin()}`,
        `Cookie: ${cookies.get(user)}`,
        'Content-Type: application/json',
        `Content-Length: ${40 * 1024 * 1024}`,
        '',
        '{"type":"import","params":{"kind":"brands","data":[',
      ].join('\r\n'),
    );
    held.push(socket);
    await waitUntil(() => largeBodiesInProgress() > before, 'the server to start reading the held body');
    return socket;
  }

  async function post(user: string, body: string): Promise<Answer> {
    const res = await fetch(`${origin()}/api/jobs`, {
      method: 'POST',
      headers: { Origin: origin(), Cookie: cookies.get(user)!, 'Content-Type': 'application/json' },
      body,
    });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Answer['body'] };
  }

  /** A whole import of `count` brand rows: over 1 MB from about 12,000 rows. */
  function largeImport(count: number, prefix: string): string {
    const data = Array.from({ length: count }, (_, i) => ({
      Brand: `${prefix} ${i}`,
      'First Name': 'Ann',
      'Last Name': `Row${i}`,
      Email: `ann${i}@${prefix}.example.org`,
    }));
    return JSON.stringify({ type: 'import', params: { kind: 'brands', data } });
  }

  it('refuses a third large body from one user with 429, a fifth from anyone with 503, and takes one again once a slot frees', async () => {
    const annFirst = await holdLargeBody('ann');
    await holdLargeBody('ann');
    const annThird = await post('ann', largeImport(15000, 'annthird'));
    expect(annThird.status).toBe(429);
    expect(Number(annThird.retryAfter)).toBeGreaterThan(0);
    expect(annThird.body.message).toBe('You are already sending 2 large imports or jobs; wait for one to finish, then try again.');

    await holdLargeBody('ben');
    await holdLargeBody('ben');
    const catLarge = await post('cat', largeImport(15000, 'catlarge'));
    expect(catLarge.status).toBe(503);
    expect(Number(catLarge.retryAfter)).toBeGreaterThan(0);
    expect(catLarge.body.message).toBe('The server is busy receiving other large imports or jobs; try again in a few seconds.');
    // A small body is not held back.
    expect((await post('cat', JSON.stringify({ type: 'sync', params: { kind: 'nothing' } }))).status).toBe(400);

    // Ann goes away: her slot is given back, and Cat's large import is taken, stored piece by piece and run.
    annFirst.destroy();
    let accepted: Answer | undefined;
    await waitUntil(async () => (accepted = await post('cat', largeImport(15000, 'catlarge'))).status !== 503, 'a slot to free');
    expect(accepted!.status).toBe(202);
    let state = '';
    await waitUntil(
      async () =>
        ['succeeded', 'failed'].includes((state = (await t.ctx.db('jobs').where({ id: accepted!.body.id }).first('state')).state)),
      'the import to finish',
      120_000,
    );
    expect(state).toBe('succeeded');
    expect(Number((await t.ctx.db('brands').where('brandName', 'like', 'catlarge %').count({ n: '*' }).first())!.n)).toBe(15000);
  }, 180_000);
});
