import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@services/users/service.js';
import type { JobView } from '@shared/schemas/jobs.js';
import { samples } from '../api/attachments-fixtures.js';
import { FakeWordPress } from '../fakes/wordpress.js';
import { sampleEvents, sampleRunClubs } from '../fakes/sample-data.js';
import { FakeClock, testConfig } from '../helpers/app.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/db.js';
import { buildProduct, startProductProcess, startWebProcess, type ProductProcess } from '../helpers/processes.js';
import { TEST_REDIS_URL, testQueuePrefix } from '../helpers/redis.js';
import { waitUntil } from '../helpers/wait.js';

type WebProcess = ProductProcess & { url: string };

const PASSWORD = 'the right password';
const IMPORT_ROWS = 30_000;

/** The cookies an answer set, as a Cookie header. */
const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');

/** Calls one web process as a browser on its page would (its own Origin), with a session's cookies if given. */
async function call(server: WebProcess, method: string, url: string, options: { cookie?: string; body?: unknown } = {}) {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: {
      Origin: server.url,
      ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(options.cookie ? { Cookie: options.cookie } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { res, status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> & { message?: string } };
}

const signIn = (server: WebProcess, email: string, password = PASSWORD) =>
  call(server, 'POST', '/api/login', { body: { email, password } });

/**
 * A production install in miniature: two built web processes (`node dist/server.js`) and one `pacer worker` on one
 * database and one Redis. Everything a user does may reach either web process, so sessions, sign-in throttling,
 * jobs and the sync lock must live in the database (or Redis), never in a process's memory.
 */
describe(`two web processes and a worker on one database and Redis (${testDialect})`, () => {
  let database: TestDatabase;
  let product: Awaited<ReturnType<typeof buildProduct>>;
  let uploadDir: string;
  let wp: FakeWordPress;
  let first: WebProcess;
  let second: WebProcess;
  let worker: ProductProcess;
  const started: ProductProcess[] = [];

  beforeAll(async () => {
    [database, product] = await Promise.all([createTestDatabase(), buildProduct('pacer-several-processes')]);
    uploadDir = mkdtempSync(path.join(tmpdir(), 'pacer-processes-'));
    wp = await new FakeWordPress({ posts: { events: sampleEvents(40), 'run-clubs': sampleRunClubs(20) } }).start();
    const ctx = { db: database.db, log: pino({ level: 'silent' }), config: testConfig(), clock: new FakeClock(new Date()) };
    for (const email of ['one@example.org', 'throttled@example.org'])
      await createUser(ctx, { email, password: PASSWORD, firstName: 'Sha', lastName: 'Red', role: 'staff' });
    const env = {
      NODE_ENV: 'test',
      SESSION_SECRET: 'test-secret-test-secret-test-secret-0123456789',
      BCRYPT_COST: '4',
      LOG_LEVEL: 'info',
      DATABASE_URL: database.url,
      UPLOAD_DIR: uploadDir,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: testQueuePrefix(),
      // Progress is written at every lease renewal (a third of the lease): often enough to watch.
      JOB_LEASE_SECONDS: '2',
      ...wp.env,
      HTTP_TIMEOUT_MS: '20000',
    };
    [first, second] = await Promise.all([startWebProcess(product.root, env), startWebProcess(product.root, env)]);
    worker = startProductProcess(product.root, ['dist/cli.js', 'worker'], env);
    started.push(first, second, worker);
    await waitUntil(() => worker.output().includes('job workers started') || worker.child.exitCode !== null, 'the worker to start', 60_000);
    expect(worker.child.exitCode, worker.output()).toBeNull();
  }, 240_000);

  afterAll(async () => {
    await Promise.all(started.map((one) => one.stop()));
    await wp?.close();
    await database?.destroy();
    product?.remove();
    if (uploadDir) rmSync(uploadDir, { recursive: true, force: true });
  });

  it('accepts a session made on one process on the other, and a sign-out on either ends it on both', async () => {
    const login = await signIn(first, 'one@example.org');
    expect(login.status).toBe(200);
    const cookie = cookiesOf(login.res);
    expect((await call(second, 'GET', '/api/me', { cookie })).body).toMatchObject({ user: { email: 'one@example.org' } });
    expect((await call(first, 'GET', '/api/me', { cookie })).status).toBe(200);

    expect((await call(second, 'POST', '/api/logout', { cookie })).status).toBe(204);
    // The browser would drop the cookie; a copy of it kept elsewhere is refused by both processes all the same.
    expect((await call(first, 'GET', '/api/me', { cookie })).status).toBe(401);
    expect((await call(second, 'GET', '/api/me', { cookie })).status).toBe(401);
  });

  it('counts sign-in failures on one process against the other', async () => {
    // The limit is 10 failures per account and address in 15 minutes: all ten reach the first process.
    for (let i = 0; i < 10; i++) expect((await signIn(first, 'throttled@example.org', 'wrong password')).status).toBe(401);
    const refused = await signIn(second, 'throttled@example.org');
    expect(refused.status).toBe(429);
    expect(Number(refused.res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('stores a file uploaded through one process, typed by its bytes, and serves it from the other', async () => {
    const cookie = cookiesOf((await signIn(first, 'one@example.org')).res);
    const brand = await call(first, 'POST', '/api/brands', { cookie, body: { brandName: 'Shared Files' } });
    expect(brand.status).toBe(201);
    const form = new FormData();
    form.set('entityType', 'brand');
    form.set('entityId', String(brand.body.id));
    // Named and sent as a GIF: the built server reads its type from the bytes (file-type, loaded with the first upload).
    form.set('files', new Blob([samples.png], { type: 'image/gif' }), 'logo.gif');
    const upload = await fetch(`${first.url}/api/upload`, { method: 'POST', headers: { Origin: first.url, Cookie: cookie }, body: form });
    expect(upload.status, await upload.clone().text()).toBe(201);
    const [stored] = ((await upload.json()) as { files: Array<{ id: number; fileType: string }> }).files;
    expect(stored!.fileType).toBe('image/png');
    const served = await fetch(`${second.url}/api/uploads/${stored!.id}`, { headers: { Cookie: cookie } });
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(samples.png)).toBe(true);
  });

  it('runs an import started through one process in the worker, its progress readable through the other', async () => {
    const cookie = cookiesOf((await signIn(first, 'one@example.org')).res);
    const data = Array.from({ length: IMPORT_ROWS }, (_, i) => ({
      Brand: `Shared ${i}`,
      'First Name': 'Pro',
      'Last Name': 'Cess',
      Email: `p${i}@processes.example.org`,
    }));
    const startedJob = await call(first, 'POST', '/api/jobs', {
      cookie,
      body: { type: 'import', params: { kind: 'brands', data, lines: data.map((_, i) => i + 2) } },
    });
    expect(startedJob.status).toBe(202);
    const id = startedJob.body.id as number;

    const seen: JobView[] = [];
    await waitUntil(
      async () => {
        const read = await call(second, 'GET', `/api/jobs/${id}`, { cookie });
        expect(read.status).toBe(200);
        seen.push(read.body as unknown as JobView);
        return ['succeeded', 'failed', 'cancelled'].includes(seen.at(-1)!.state);
      },
      'the import to finish',
      180_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n--- worker:\n${worker.output().slice(-4000)}`);
    });

    const done = seen.at(-1)!;
    expect(done).toMatchObject({ state: 'succeeded', progress: { done: IMPORT_ROWS, total: IMPORT_ROWS } });
    expect(done.result).toMatchObject({ brandsCreated: IMPORT_ROWS, contactsCreated: IMPORT_ROWS });
    // The other process saw the job run: its progress part-way, never going back.
    const readings = seen.map((job) => `${job.state} ${job.progress.done}/${job.progress.total}`);
    expect(
      seen.some((job) => job.state === 'running' && job.progress.total === IMPORT_ROWS && job.progress.done < IMPORT_ROWS),
      [...new Set(readings)].join(', '),
    ).toBe(true);
    const dones = seen.map((job) => job.progress.done);
    expect(dones).toEqual([...dones].sort((a, b) => a - b));
    // The worker ran it; the web processes only enqueued.
    const ranIt = (one: ProductProcess) => one.logLines().some((line) => line.jobId === id && line.msg === 'job succeeded');
    await waitUntil(() => ranIt(worker), "the worker's log line of the job");
    expect(ranIt(first) || ranIt(second)).toBe(false);
  }, 240_000);

  it('runs one sync when the Sync button is pressed on both processes at once', async () => {
    const cookie = cookiesOf((await signIn(second, 'one@example.org')).res);
    const syncRuns = async (kind: string) =>
      Number(((await database.db('sync_runs').where({ kind }).count({ n: '*' }).first()) as { n: number }).n);

    // WordPress holds its answers, so the sync that won is still running when the other click arrives.
    let release = wp.holdAnswers();
    try {
      // The spec's endpoint: it waits for the sync, so the winner answers once WordPress does.
      const clicks = [call(first, 'POST', '/api/sync/events', { cookie }), call(second, 'POST', '/api/sync/events', { cookie })];
      const loser = await Promise.race(clicks);
      expect(loser.status).toBe(409);
      expect(loser.body.message).toBe('A sync of events is already running; try again when it has finished');
      release();
      const answers = await Promise.all(clicks);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(answers.find((answer) => answer.status === 200)!.body).toMatchObject({ success: true });
      expect(await syncRuns('events')).toBe(1);

      // The screens' job API: one click gets the job, the other "already running".
      release = wp.holdAnswers();
      const jobs = await Promise.all(
        [first, second].map((server) =>
          call(server, 'POST', '/api/jobs', { cookie, body: { type: 'sync', params: { kind: 'runclubs' } } }),
        ),
      );
      expect(jobs.map((job) => job.status).sort()).toEqual([202, 409]);
      expect(jobs.find((job) => job.status === 409)!.body.message).toBe(
        'A sync of run clubs is already running; try again when it has finished',
      );
      release();
      const id = jobs.find((job) => job.status === 202)!.body.id as number;
      await waitUntil(
        async () => ((await call(first, 'GET', `/api/jobs/${id}`, { cookie })).body as unknown as JobView).state === 'succeeded',
        'the run clubs sync to finish in the worker',
        60_000,
      );
      expect(await syncRuns('runclubs')).toBe(1);
      const syncsRun = () => worker.logLines().filter((line) => line.jobType === 'sync' && line.msg === 'job succeeded');
      await waitUntil(() => syncsRun().length >= 2, "the worker's log lines of both syncs");
      expect(syncsRun()).toHaveLength(2);
    } finally {
      release();
    }
  }, 120_000);
});
