import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createUser } from '@services/users/service.js';
import { TEST_PASSWORD, type TestApp } from './app.js';

/**
 * A test app on a real port, with signed-in staff users' cookies, for tests that send large job bodies the way a
 * client does: a piece at a time, never built whole (a 40 MB string in the test would say nothing about the server).
 */
export interface LiveApp {
  port: number;
  origin: string;
  cookies: Map<string, string>;
  close(): Promise<void>;
}

export async function listen(t: TestApp, users: string[]): Promise<LiveApp> {
  const server = http.createServer(t.app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const cookies = new Map<string, string>();
  for (const name of users) {
    const email = `${name}@example.org`;
    await createUser(t.ctx, { email, password: TEST_PASSWORD, firstName: name, lastName: 'Staff' });
    const login = await fetch(`${origin}/api/login`, {
      method: 'POST',
      headers: { Origin: origin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: TEST_PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`could not sign in ${email}: ${login.status}`);
    cookies.set(
      name,
      login.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; '),
    );
  }
  return {
    port,
    origin,
    cookies,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A JSON body made of a head, `count` rows made by `row(i)` (comma separated) and a tail, with its exact length. */
export interface StreamedBody {
  length: number;
  pieces(): Iterable<string>;
}

export function rowsBody(head: string, count: number, row: (i: number) => string, tail: string): StreamedBody {
  let length = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(0, count - 1);
  for (let i = 0; i < count; i++) length += Buffer.byteLength(row(i));
  return {
    length,
    *pieces() {
      yield head;
      const perPiece = 2000;
      for (let start = 0; start < count; start += perPiece) {
        const rows: string[] = [];
        for (let i = start; i < Math.min(count, start + perPiece); i++) rows.push(row(i));
        yield (start ? ',' : '') + rows.join(',');
      }
      yield tail;
    },
  };
}

export interface Answer {
  status: number;
  body: { message?: string; code?: string; id?: number };
}

/**
 * POSTs the pieces with backpressure; with `declare` the length is sent up front, otherwise the body goes chunked.
 * Answers once the server answered (it may answer before the whole body was sent: the rest is still written).
 */
export async function post(
  app: LiveApp,
  user: string,
  path: string,
  pieces: Iterable<string | Buffer>,
  options: { length?: number; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const request = http.request({
    host: '127.0.0.1',
    port: app.port,
    method: 'POST',
    path,
    headers: {
      Origin: app.origin,
      Cookie: app.cookies.get(user)!,
      'Content-Type': 'application/json',
      ...(options.length !== undefined ? { 'Content-Length': String(options.length) } : {}),
      ...options.headers,
    },
  });
  const answered = new Promise<Answer>((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(parts).toString() || '{}') as Answer['body'] }),
      );
    });
  });
  let answer: Answer | undefined;
  void answered.then((value) => (answer = value)).catch(() => undefined);
  for (const piece of pieces) {
    if (answer) break;
    if (!request.write(piece)) await Promise.race([once(request, 'drain'), answered]);
  }
  request.end();
  return answered;
}
