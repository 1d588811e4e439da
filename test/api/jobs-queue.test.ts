import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '@services/jobs/dispatch.js';
import type { JobView } from '@shared/schemas/jobs.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_REDIS_URL, testQueuePrefix } from '../helpers/redis.js';
import { waitUntil } from '../helpers/wait.js';

describe('jobs through BullMQ on Redis (queue mode)', () => {
  let t: TestApp;
  let agent: Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];
  let workers: { close(): Promise<void> } | undefined;

  beforeAll(async () => {
    t = await createTestApp({ env: { REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: testQueuePrefix(), JOB_LEASE_SECONDS: '5' } });
    agent = (await t.signedInAgent('queue@example.org')).agent;
  });
  afterAll(async () => {
    await workers?.close();
    await t.close();
  });

  const rows = (count: number) => {
    const data = Array.from({ length: count }, (_, i) => ({
      Brand: `Queued ${i}`,
      'First Name': 'Q',
      'Last Name': 'Ueue',
      Email: `q${i}@queued.example.org`,
    }));
    return { data, lines: data.map((_, i) => i + 2) };
  };

  it('leaves a job queued until a worker runs it: the web process only enqueues', async () => {
    const res = await agent
      .post('/api/jobs')
      .send({ type: 'import', params: { kind: 'brands', ...rows(12) } })
      .expect(202);
    const id = res.body.id as number;
    expect(((await agent.get(`/api/jobs/${id}`).expect(200)).body as JobView).state).toBe('queued');
    workers = await startWorkers(t.ctx);
    await waitUntil(async () => ((await agent.get(`/api/jobs/${id}`)).body as JobView).state === 'succeeded', 'a worker to run the job');
    const job = (await agent.get(`/api/jobs/${id}`)).body as JobView;
    expect(job.result).toMatchObject({ brandsCreated: 12, contactsCreated: 12 });
    expect(job.progress).toMatchObject({ done: 12, total: 12 });
  });

  it('keeps the spec endpoint contract: it enqueues, waits and answers the counts or the error', async () => {
    const ok = await agent.post('/api/brands/bulk-import').send(rows(3)).expect(200);
    expect(ok.body).toEqual({ brandsCreated: 0, contactsCreated: 0, skipped: 3, errors: [] });
    const refused = await agent.post('/api/brands/bulk-import').attach('file', Buffer.from('Name,Email\nx,y@example.org\n'), 'brands.csv');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/Brand/);
    const jobs = (await agent.get('/api/jobs?type=import').expect(200)).body.items as JobView[];
    expect(jobs.map((job) => job.state)).toEqual(['failed', 'succeeded', 'succeeded']);
  });
});
