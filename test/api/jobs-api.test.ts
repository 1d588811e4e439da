import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encodeTimestamp } from '@db/codecs.js';
import { badRequest } from '@services/errors.js';
import { executeJob } from '@services/jobs/execute.js';
import { jobHandlers } from '@services/jobs/handlers.js';
import { createJob, startImportJob, startJob } from '@services/jobs/service.js';
import type { JobView } from '@shared/schemas/jobs.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { gate, waitUntil } from '../helpers/wait.js';

/** A brands import's rows as the screens send them: one brand and contact per row. */
function brandRows(count: number, prefix = 'Brand') {
  const data = Array.from({ length: count }, (_, i) => ({
    Brand: `${prefix} ${i}`,
    'First Name': 'Ann',
    'Last Name': `Row${i}`,
    Email: `ann${i}@${prefix.toLowerCase().replace(/\W/g, '')}.example.org`,
  }));
  return { data, lines: data.map((_, i) => i + 2) };
}

describe('the job API (embedded runner)', () => {
  let t: TestApp;
  let agent: Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];
  let userId: number;

  beforeAll(async () => {
    t = await createTestApp({ env: { JOB_LEASE_SECONDS: '3', JOB_BACKOFF_MS: '10', JOB_ATTEMPTS: '3' } });
    const signedIn = await t.signedInAgent('jobs@example.org');
    agent = signedIn.agent;
    userId = signedIn.user.id;
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    await t.ctx.db('contacts').del();
    await t.ctx.db('brands').del();
  });

  const jobOf = async (id: number) => (await agent.get(`/api/jobs/${id}`).expect(200)).body as JobView;
  const finished = async (id: number) => {
    let job = await jobOf(id);
    await waitUntil(
      async () => ['succeeded', 'failed', 'cancelled'].includes((job = await jobOf(id)).state),
      `job ${id} to finish`,
      60_000,
    );
    return job;
  };
  const count = async (table: string) => Number(((await t.ctx.db(table).count({ n: '*' }).first()) as { n: number }).n);

  it('starts an import at once, runs it, and reports progress and the screen summary', async () => {
    const res = await agent.post('/api/jobs').send({ type: 'import', params: { kind: 'brands', ...brandRows(30) } });
    expect(res.status).toBe(202);
    const job = await finished(res.body.id as number);
    expect(job).toMatchObject({
      type: 'import',
      state: 'succeeded',
      params: { kind: 'brands' },
      trigger: 'web',
      startedBy: 'jobs@example.org',
      progress: { done: 30, total: 30, phase: 'Finished' },
      result: { brandsCreated: 30, contactsCreated: 30, skipped: 0, errors: [], rowsRead: 30 },
      error: null,
      attempts: 1,
    });
    expect(job.startedAt).not.toBeNull();
    expect(job.finishedAt).not.toBeNull();
    // The stored input goes once the job is done.
    expect(await count('job_inputs')).toBe(0);

    const listed = (await agent.get('/api/jobs?type=import&state=succeeded').expect(200)).body.items as JobView[];
    expect(listed.map((item) => item.id)).toContain(job.id);
    expect((await agent.get('/api/jobs?type=sync').expect(200)).body.items.map((item: JobView) => item.id)).not.toContain(job.id);
  });

  it('renders the /jobs page on the server with the URL filters, and a refused filter as a 400 on the page', async () => {
    const res = await agent.post('/api/jobs').send({ type: 'import', params: { kind: 'brands', ...brandRows(3, 'Paged') } });
    const job = await finished(res.body.id as number);
    const page = await agent.get('/jobs?type=import&state=succeeded');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Jobs</h1>');
    expect(page.text).toContain(`data-testid="job-${job.id}"`);
    expect(page.text).toContain('Created 3 brands and 3 contacts');
    expect(page.text).toMatch(/By (<!-- -->)?jobs@example.org/);
    expect(page.text).toContain('href="/jobs"');
    const others = await agent.get('/jobs?type=sync');
    expect(others.status).toBe(200);
    expect(others.text).not.toContain(`data-testid="job-${job.id}"`);
    const refused = await agent.get('/jobs?state=done');
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('state must be one of: queued, running, succeeded, failed, cancelled');
  });

  it('records a file the import refuses as a failed job with the endpoint answer', async () => {
    const res = await agent
      .post('/api/jobs?type=import&kind=brands')
      .attach('file', Buffer.from('Name,Email\nx,y@example.org\n'), 'brands.csv')
      .expect(202);
    const job = await finished(res.body.id as number);
    expect(job.state).toBe('failed');
    expect(job.attempts).toBe(1);
    expect(job.error).toMatchObject({ status: 400 });
    expect(job.error!.message).toMatch(/Brand/);
  });

  it('answers 4xx for bad requests', async () => {
    expect((await agent.post('/api/jobs').send({ type: 'backup', params: {} })).status).toBe(400);
    expect((await agent.post('/api/jobs').send({ type: 'import', params: { kind: 'media', data: [] } })).status).toBe(400);
    expect((await agent.post('/api/jobs').send({ type: 'import', params: { kind: 'brands' } })).status).toBe(400);
    expect((await agent.post('/api/jobs').send({ type: 'sync', params: { kind: 'brands' } })).status).toBe(400);
    expect((await agent.post('/api/jobs').send({ type: 'newsletter', params: {} })).status).toBe(400);
    expect((await agent.post('/api/jobs').send([1, 2])).status).toBe(400);
    expect((await agent.get('/api/jobs/abc')).status).toBe(400);
    expect((await agent.get('/api/jobs/999999')).status).toBe(404);
    expect((await agent.get('/api/jobs?state=done')).status).toBe(400);
    expect((await agent.post('/api/jobs/999999/cancel')).status).toBe(404);
    expect((await t.agent().get('/api/jobs')).status).toBe(401);
  });

  it('cancels a running import at a batch boundary: committed batches stay, the row says cancelled', async () => {
    const rows = brandRows(20, 'Cancel').data.map((values, i) => ({ line: i + 2, values }));
    const paused = gate();
    // The rows arrive in two parts, the second held until the test has asked for the cancel.
    async function* chunks() {
      yield rows.slice(0, 5);
      await paused.promise;
      yield rows.slice(5);
    }
    const id = await createJob(t.ctx, { userId, source: 'cli', role: 'admin' }, 'import', { kind: 'brands', batchSize: 5 }, { hold: true });
    const running = executeJob(t.ctx, id, {
      owner: 'test',
      local: { open: async () => ({ header: ['Brand', 'First Name', 'Last Name', 'Email'], chunks: chunks() }), expectedRows: () => 20 },
    });
    await waitUntil(async () => (await count('brands')) === 5, 'the first batch to commit');
    const asked = await agent.post(`/api/jobs/${id}/cancel`).expect(200);
    expect(asked.body).toMatchObject({ state: 'running', cancelRequested: true });
    paused.release();
    expect(await running).toEqual({ kind: 'finished', state: 'cancelled' });
    const job = await jobOf(id);
    expect(job.state).toBe('cancelled');
    expect(job.progress.done).toBe(5);
    // The batch committed before the cancel stays whole; nothing after it was written.
    expect(await count('brands')).toBe(5);
    expect(await count('contacts')).toBe(5);
    expect((await agent.post(`/api/jobs/${id}/cancel`)).status).toBe(409);
  });

  it('allows one sync of a kind at a time across the job API, the sync endpoint and the CLI path', async () => {
    // A sync recorded but not yet run (as if queued behind a busy worker) holds the kind. Held, so that the runner's
    // sweep (3 s leases here) cannot start one on a slow machine before the test cancels it.
    const queued = { hold: true };
    const first = await createJob(t.ctx, { userId, source: 'web', role: 'staff' }, 'sync', { kind: 'events' }, queued);
    const viaJobs = await agent.post('/api/jobs').send({ type: 'sync', params: { kind: 'events' } });
    expect(viaJobs.status).toBe(409);
    expect(viaJobs.body.message).toBe('A sync of events is already running; try again when it has finished');
    const viaSync = await agent.post('/api/sync/events');
    expect(viaSync.status).toBe(409);
    expect(viaSync.body).toMatchObject({ success: false, message: 'A sync of events is already running; try again when it has finished' });
    // Another kind is not held; a cancelled queued job frees its kind at once.
    const other = await createJob(t.ctx, { userId, source: 'web', role: 'staff' }, 'sync', { kind: 'runclubs' }, queued);
    const cancelled = await agent.post(`/api/jobs/${first}/cancel`).expect(200);
    expect(cancelled.body.state).toBe('cancelled');
    const again = await createJob(t.ctx, { userId, source: 'web', role: 'staff' }, 'sync', { kind: 'events' }, queued);
    for (const id of [other, again]) await agent.post(`/api/jobs/${id}/cancel`).expect(200);
  });

  it('runs a job again after a passing failure, with backoff, and never after bad input', async () => {
    const original = jobHandlers.newsletter;
    let calls = 0;
    try {
      jobHandlers.newsletter = async () => {
        calls++;
        if (calls === 1) throw Object.assign(new Error('Deadlock found when trying to get lock'), { code: 'ER_LOCK_DEADLOCK' });
        return { pushed: 1 };
      };
      const passing = await finished(await startJob(t.ctx, { userId, source: 'web', role: 'staff' }, 'newsletter', { audienceId: 'abc' }));
      expect(passing).toMatchObject({ state: 'succeeded', attempts: 2, result: { pushed: 1 } });

      jobHandlers.newsletter = async () => {
        calls++;
        throw badRequest('Not a valid audience id');
      };
      calls = 0;
      const refused = await finished(await startJob(t.ctx, { userId, source: 'web', role: 'staff' }, 'newsletter', { audienceId: 'abc' }));
      expect(refused).toMatchObject({ state: 'failed', attempts: 1, error: { status: 400, message: 'Not a valid audience id' } });
      expect(calls).toBe(1);

      jobHandlers.newsletter = async () => {
        calls++;
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
      };
      calls = 0;
      const down = await finished(await startJob(t.ctx, { userId, source: 'web', role: 'staff' }, 'newsletter', { audienceId: 'abc' }));
      expect(down).toMatchObject({ state: 'failed', attempts: 3, error: { status: 500 } });
      expect(calls).toBe(3);
    } finally {
      jobHandlers.newsletter = original;
    }
  });

  it('takes up a job whose holder died once its lease has run out, and the re-run creates no duplicates', async () => {
    const rows = brandRows(20, 'Lease');
    const id = await startImportJob(
      t.ctx,
      { userId, source: 'web', role: 'staff' },
      { kind: 'brands' },
      {
        format: 'rows',
        bytes: Buffer.from(
          JSON.stringify({
            header: ['Brand', 'First Name', 'Last Name', 'Email'],
            rows: rows.data.map((values, i) => ({ line: i + 2, values })),
          }),
        ),
        rows: 20,
      },
    );
    await finished(id);
    // As a process killed mid-run leaves it: running, held by a process that is gone, its lease run out.
    const past = encodeTimestamp(new Date(t.clock.now().getTime() - 60_000));
    await t.ctx.db('jobs').where({ id }).update({ state: 'running', leaseOwner: 'gone|1|x', leaseExpiresAt: past, finishedAt: null });
    await t.ctx.db('job_inputs').insert({
      jobId: id,
      seq: 0,
      bytes: Buffer.from(
        JSON.stringify({
          header: ['Brand', 'First Name', 'Last Name', 'Email'],
          rows: rows.data.map((values, i) => ({ line: i + 2, values })),
        }),
      ),
    });
    const job = await finished(id);
    // Every row was committed by the first holder: the second reads none again, and the summary is still the whole work.
    expect(job).toMatchObject({
      state: 'succeeded',
      attempts: 2,
      result: { brandsCreated: 20, contactsCreated: 20, skipped: 0, rowsRead: 20 },
    });
    expect(await count('brands')).toBe(20);
    expect(await count('contacts')).toBe(20);
  });

  it('counts the work of a holder killed midway in the summary of the run that takes the job over', async () => {
    const rows = brandRows(20, 'Killed');
    const stored = () =>
      Buffer.from(
        JSON.stringify({
          header: ['Brand', 'First Name', 'Last Name', 'Email'],
          rows: rows.data.map((values, i) => ({ line: i + 2, values })),
        }),
      );
    // The first holder dies before its third batch of five: ten rows committed, ten not.
    const original = jobHandlers.import;
    let batches = 0;
    jobHandlers.import = (run) =>
      original({
        ...run,
        async checkpoint() {
          if (++batches > 2) throw new Error('the worker was killed');
          await run.checkpoint();
        },
      });
    let id: number;
    try {
      id = await startImportJob(
        t.ctx,
        { userId, source: 'web', role: 'staff' },
        { kind: 'brands', batchSize: 5 },
        { format: 'rows', bytes: stored(), rows: 20 },
      );
      await finished(id);
    } finally {
      jobHandlers.import = original;
    }
    expect(await count('brands')).toBe(10);
    // As a process killed mid-run leaves it: running, held by a process that is gone, its lease run out, its input there.
    const past = encodeTimestamp(new Date(t.clock.now().getTime() - 60_000));
    await t.ctx
      .db('jobs')
      .where({ id })
      .update({ state: 'running', leaseOwner: 'gone|1|x', leaseExpiresAt: past, finishedAt: null, error: null });
    await t.ctx.db('job_inputs').insert({ jobId: id, seq: 0, bytes: stored() });
    const job = await finished(id);
    expect(job).toMatchObject({
      state: 'succeeded',
      result: { brandsCreated: 20, contactsCreated: 20, skipped: 0, rowsRead: 20, appliedRows: 20, errors: [] },
      progress: { done: 20, total: 20 },
    });
    expect(job.params).toEqual({ kind: 'brands', batchSize: 5 });
    expect(await count('brands')).toBe(20);
    expect(await count('contacts')).toBe(20);
  });
});
