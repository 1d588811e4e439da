import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@services/users/service.js';
import { FakeClock, testConfig } from '../helpers/app.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/db.js';
import { waitUntil } from '../helpers/wait.js';

interface ServerProcess {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/** Starts `src/server/main.ts` in a process of its own on the shared database; resolves once it listens. */
async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let port = 0;
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    port ||= Number(/listening on http:\/\/localhost:(\d+)/.exec(output)?.[1] ?? 0);
  });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitUntil(() => port > 0 || child.exitCode !== null, 'the server process to listen', 60_000);
  if (!port) throw new Error(`the server process exited: ${output}`);
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function signIn(server: ServerProcess, password: string, email = 'shared@example.org') {
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.url },
    body: JSON.stringify({ email, password }),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after') };
}

/**
 * The sign-in limit (10 failures per account and address in 15 minutes) is kept in the database, so two server
 * processes count together, and a restarted process still knows.
 */
describe(`sign-in throttling across server processes (${testDialect})`, () => {
  let database: TestDatabase;
  let uploadDir: string;
  const servers: ServerProcess[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    uploadDir = mkdtempSync(path.join(tmpdir(), 'pacer-throttle-'));
    const config = testConfig({ DATABASE_URL: database.url });
    const ctx = { db: database.db, log: pino({ level: 'silent' }), config, clock: new FakeClock(new Date()) };
    for (const email of ['shared@example.org', 'parallel@example.org'])
      await createUser(ctx, { email, password: 'the right password', firstName: 'Sha', lastName: 'Red' });
    env = {
      NODE_ENV: 'test',
      SESSION_SECRET: 'test-secret-test-secret-test-secret-0123456789',
      BCRYPT_COST: '4',
      LOG_LEVEL: 'info',
      DATABASE_URL: database.url,
      UPLOAD_DIR: uploadDir,
      HOST: '127.0.0.1',
      PORT: '0',
    };
    servers.push(...(await Promise.all([startServer(env), startServer(env)])));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.destroy();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('shares one limit between two processes and keeps it over a restart', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess];
    // Five wrong passwords on each: neither process alone has seen ten.
    for (let i = 0; i < 5; i++) {
      expect((await signIn(first, 'wrong password')).status).toBe(401);
      expect((await signIn(second, 'wrong password')).status).toBe(401);
    }
    for (const server of [first, second]) {
      const refused = await signIn(server, 'the right password');
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    }

    await first.stop();
    const restarted = await startServer(env);
    servers.push(restarted);
    expect((await signIn(restarted, 'the right password')).status).toBe(429);
  }, 120_000);

  it('lets at most the limit of 40 wrong passwords sent at once to both processes be checked', async () => {
    const running = servers.filter((server) => server.child.exitCode === null);
    expect(running).toHaveLength(2);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(running[i % 2]!, `guess ${i}`, 'parallel@example.org')));
    const statuses = answers.map((answer) => answer.status);
    // Ten (the limit) were checked and failed; the rest were refused before their password was looked at.
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
    expect((await signIn(running[0]!, 'the right password', 'parallel@example.org')).status).toBe(429);
  }, 120_000);
});
