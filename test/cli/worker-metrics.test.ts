import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPacer } from '../helpers/cli-io.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { TEST_REDIS_URL, testQueuePrefix } from '../helpers/redis.js';
import { exitOf, startWorkerProcess } from '../helpers/processes.js';
import { waitUntil } from '../helpers/wait.js';

const TOKEN = 'worker-metrics-token-0123456789';

describe('pacer worker metrics', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let worker: (ChildProcess & { output(): string }) | undefined;

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
      HOST: '127.0.0.1',
    };
  });
  afterAll(async () => {
    if (worker && worker.exitCode === null && !worker.signalCode) worker.kill('SIGKILL');
    await database.destroy();
  });

  it('refuses WORKER_METRICS_PORT without METRICS_TOKEN', async () => {
    const { code, err } = await runPacer({ ...env, WORKER_METRICS_PORT: '0' }, ['worker']);
    expect(code).toBe(2);
    expect(err).toContain('WORKER_METRICS_PORT needs METRICS_TOKEN');
  });

  it('serves /metrics on WORKER_METRICS_PORT to a scraper with the token, and stops cleanly', async () => {
    worker = startWorkerProcess({ ...env, METRICS_TOKEN: TOKEN, WORKER_METRICS_PORT: '0' });
    let port = 0;
    await waitUntil(
      () => {
        const line = /"port":(\d+),"msg":"worker metrics listening"/.exec(worker!.output());
        port = Number(line?.[1] ?? 0);
        return port > 0;
      },
      'the worker metrics port',
      60_000,
    );
    const url = `http://127.0.0.1:${port}`;
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    expect((await fetch(`${url}/metrics`, { headers: { Authorization: 'Bearer not-the-token-0123456789' } })).status).toBe(401);
    expect((await fetch(`${url}/other`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    const res = await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    for (const name of [
      'pacer_job_queue_depth',
      'pacer_job_outcomes_total',
      'pacer_db_pool_acquire_wait_seconds',
      'process_cpu_seconds_total',
    ])
      expect(text).toContain(`# TYPE ${name} `);
    expect(text).toMatch(/^pacer_job_queue_depth\{type="import",state="queued"\} 0$/m);
    worker.kill('SIGTERM');
    expect(await exitOf(worker)).toBe(0);
    expect(worker.output()).toContain('worker stopped');
  }, 90_000);
});
