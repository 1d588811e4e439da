import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext } from '@context/app-context.js';
import { closeJobDispatcher } from '@services/jobs/dispatch.js';
import { startImportJob } from '@services/jobs/service.js';
import type { AppContext } from '@services/context.js';
import { runCli } from '@cli/program.js';
import { testConfig } from '../helpers/app.js';
import { runPacer } from '../helpers/cli-io.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { TEST_REDIS_URL, testQueuePrefix } from '../helpers/redis.js';
import { exitOf, startWorkerProcess } from '../helpers/processes.js';
import { unlikeName } from '../helpers/names.js';
import { waitUntil } from '../helpers/wait.js';

const ROWS = 4000;

describe('pacer worker', () => {
  let database: TestDatabase;
  let ctx: AppContext;
  let env: Record<string, string>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    env = {
      NODE_ENV: 'test',
      BCRYPT_COST: '4',
      SESSION_SECRET: 's'.repeat(40),
      LOG_LEVEL: 'info',
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: testQueuePrefix(),
      // A short lease, so the killed worker's job is taken over quickly.
      JOB_LEASE_SECONDS: '2',
    };
    ctx = await createAppContext(testConfig(env), { db: database.db, log: pino({ level: 'silent' }) });
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && !child.signalCode) child.kill('SIGKILL');
    await closeJobDispatcher(ctx);
    await database.destroy();
  });

  const count = async (table: string) => Number(((await database.db(table).count({ n: '*' }).first()) as { n: number }).n);

  it('pacer --version prints the release from package.json', async () => {
    const { code, out } = await runPacer({}, ['--version']);
    expect(code).toBe(0);
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(out).toBe(`${pkg.version}\n`);
  });

  it('refuses to start without REDIS_URL', async () => {
    let err = '';
    const code = await runCli(['worker'], {
      stdout: { write: () => true } as never,
      stderr: { write: (text: string) => ((err += text), true) } as never,
      stdin: process.stdin,
      env: { NODE_ENV: 'test', BCRYPT_COST: '4', SESSION_SECRET: 's'.repeat(40), DATABASE_URL: database.url },
    });
    expect(code).toBe(2);
    expect(err).toContain('pacer worker needs REDIS_URL');
  });

  it('a worker killed mid-import leaves the job to another, which completes it with no duplicates', async () => {
    const header = ['Brand', 'First Name', 'Last Name', 'Email'];
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      line: i + 2,
      values: { Brand: unlikeName(i), 'First Name': 'K', 'Last Name': 'Ill', Email: `k${i}@killed.example.org` },
    }));
    const id = await startImportJob(
      ctx,
      { userId: null, source: 'web', role: 'staff' },
      { kind: 'brands', batchSize: 20 },
      { format: 'rows', bytes: Buffer.from(JSON.stringify({ header, rows })), rows: ROWS },
    );
    const first = startWorkerProcess(env);
    children.push(first);
    const job = () =>
      database.db('jobs').where({ id }).first() as Promise<{ state: string; progressDone: number; attempts: number; result: unknown }>;
    await waitUntil(async () => (await count('brands')) > 0, 'the first worker to commit batches', 60_000);
    first.kill('SIGKILL');
    await exitOf(first);
    const atKill = await count('brands');
    expect((await job()).state).toBe('running');
    expect(atKill).toBeLessThan(ROWS);

    const second = startWorkerProcess(env);
    children.push(second);
    await waitUntil(async () => (await job()).state === 'succeeded', 'the second worker to take the job over and finish it', 150_000).catch(
      (error: Error) => {
        throw new Error(`${error.message}\n--- first worker:\n${first.output()}\n--- second worker:\n${second.output()}`);
      },
    );
    const done = await job();
    expect(done.attempts).toBe(2);
    const result = typeof done.result === 'string' ? JSON.parse(done.result) : done.result;
    // The summary counts the whole work: the killed run's committed batches and what the second worker added.
    expect(atKill).toBeGreaterThan(0);
    expect(result).toMatchObject({ rowsRead: ROWS, failedRows: 0 });
    expect(result.brandsCreated).toBe(ROWS);
    expect(await count('brands')).toBe(ROWS);
    expect(await count('contacts')).toBe(ROWS);
    const distinct = (await database.db('brands').countDistinct({ n: 'brandName' }).first()) as { n: number };
    expect(Number(distinct.n)).toBe(ROWS);

    second.kill('SIGTERM');
    expect(await exitOf(second)).toBe(0);
    expect(second.output()).toContain('worker stopped');
  }, 240_000);
});
