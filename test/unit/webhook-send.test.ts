import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isPrivateAddress, sendWebhook, signature } from '@services/webhooks/send.js';
import { sendFromThread, stopSendingThread } from '@services/webhooks/sender.js';

describe('webhook sending', () => {
  let server: Server;
  let base = '';
  let hits = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits += 1;
      if (req.url === '/redirect') res.writeHead(302, { location: `${base}/elsewhere` }).end();
      else res.writeHead(200).end('elsewhere');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
  const target = (url: string) => ({ url, secret, messageId: 'msg_1', body: '{"type":"webhook.test"}' });

  it('signs as Standard Webhooks does (checked against the standardwebhooks package)', () => {
    const at = new Date('2026-11-28T10:00:00Z');
    const seconds = Math.floor(at.getTime() / 1000);
    expect(signature(secret, 'msg_1', seconds, '{"a":1}')).toBe(new Webhook(secret).sign('msg_1', at, '{"a":1}'));
  });

  it('tells private, loopback, link-local and mapped addresses from public ones', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.8',
      '172.20.1.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(address), address).toBe(false);
  });

  it('refuses a private address at delivery, by IP and by a name that resolves to one (DNS rebinding)', async () => {
    const before = hits;
    const byIp = await sendWebhook(target(`${base}/hook`), { timeoutMs: 2000, allowPrivate: false });
    expect(byIp).toMatchObject({ ok: false, status: null });
    expect(byIp.error).toMatch(/private or loopback/);
    const byName = await sendWebhook(target(`${base.replace('127.0.0.1', 'localhost')}/hook`), { timeoutMs: 2000, allowPrivate: false });
    expect(byName.error).toMatch(/private or loopback/);
    expect(hits).toBe(before);
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const before = hits;
    const result = await sendWebhook(target(`${base}/redirect`), { timeoutMs: 2000, allowPrivate: true });
    expect(result).toMatchObject({ ok: false, status: 302, error: 'Redirects are not followed' });
    expect(hits).toBe(before + 1);
  });

  it('gives up on an endpoint that does not answer within the timeout', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
      const result = await sendWebhook(target(url), { timeoutMs: 200, allowPrivate: true });
      expect(result).toMatchObject({ ok: false, status: null });
      expect(result.error).toMatch(/no answer within 200 ms/);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('sends again on a new connection when the receiver closes a kept-open one as the request goes out', async () => {
    // The second request on a connection finds it closed by the receiver (as one that times idle connections out
    // does): the receiver never answered it, so it goes out again, once, on a connection of its own.
    const requestsOn = new Map<object, number>();
    let closed = 0;
    const closing = createServer((req, res) => {
      const count = (requestsOn.get(req.socket) ?? 0) + 1;
      requestsOn.set(req.socket, count);
      if (count === 2) {
        closed += 1;
        req.socket.destroy();
        return;
      }
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(closing.address() as AddressInfo).port}/hook`;
      expect(await sendWebhook(target(url), { timeoutMs: 2000, allowPrivate: true })).toMatchObject({ ok: true, status: 204 });
      expect(await sendWebhook(target(url), { timeoutMs: 2000, allowPrivate: true })).toMatchObject({ ok: true, status: 204 });
      expect(closed).toBe(1);
      expect(requestsOn.size).toBe(2);
    } finally {
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    }
  });

  it('sends from its own thread, in order; a thread that stops fails what it held, and the next send starts another', async () => {
    const held: Array<() => void> = [];
    const receiver = createServer((req, res) => {
      req.resume();
      if (req.url === '/slow') held.push(() => res.writeHead(204).end());
      else req.on('end', () => res.writeHead(req.url === '/gone' ? 410 : 204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = (pathname: string) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${pathname}`;
    const options = { timeoutMs: 10_000, allowPrivate: true };
    try {
      const results = await sendFromThread([target(url('/hook')), target(url('/gone'))], options);
      expect(results.map(({ ok, status, error }) => ({ ok, status, error }))).toEqual([
        { ok: true, status: 204, error: null },
        { ok: false, status: 410, error: 'Answered 410' },
      ]);
      const slow = sendFromThread([target(url('/slow'))], options);
      await vi.waitFor(() => expect(held).toHaveLength(1), { timeout: 10_000 });
      await stopSendingThread();
      expect(await slow).toEqual([
        { ok: false, status: null, body: null, error: 'The webhook sending thread stopped (exit code 1)', durationMs: 0 },
      ]);
      expect(await sendFromThread([target(url('/hook'))], options)).toMatchObject([{ ok: true, status: 204 }]);
    } finally {
      for (const answer of held) answer();
      await stopSendingThread();
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });

  it('keeps a process with nothing else to do alive while its sends are under way, and only then', async () => {
    // The answer comes late: a process that did not wait for it would end first, printing nothing.
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => setTimeout(() => res.writeHead(204).end(), 500));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      // Ends by itself once the answer is in (the test's timeout says if it does not).
      const printed = await new Promise<string>((resolve, reject) =>
        execFile(process.execPath, ['--import', 'tsx', 'test/fixtures/send-from-thread.ts', url], (error, stdout) =>
          error ? reject(error) : resolve(stdout),
        ),
      );
      expect(JSON.parse(printed)).toMatchObject([{ ok: true, status: 204 }]);
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  }, 60_000);
});
