import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '@db/knex.js';
import { withTransaction } from '@db/transaction.js';
import { insertJob } from '@services/jobs/queries.js';
import { renderMetrics, startMetrics } from '@services/metrics.js';
import { parseImportCsv } from '@views/pages/imports/parse-csv.js';
import { FakeWordPress } from '../fakes/wordpress.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { brandsText } from '../helpers/csv-bytes.js';
import { testDialect } from '../helpers/db.js';

const TOKEN = 'metrics-token-0123456789-abcdef';

/** The value of one series in Prometheus' text format (0 when it is not there yet: counters start when first counted). */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(',');
    if (wanted.every((label) => present.includes(label))) return Number(match[3]);
  }
  return 0;
}

describe('/metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('is an unknown path (404), not the sign-in page, signed in or not', async () => {
    const anonymous = await t.agent().get('/metrics');
    expect(anonymous.status).toBe(404);
    expect(anonymous.text).not.toContain('<html');
    const { agent } = await t.signedInAgent();
    expect((await agent.get('/metrics').set('Authorization', `Bearer ${TOKEN}`)).status).toBe(404);
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  let wp: FakeWordPress;
  beforeAll(async () => {
    wp = await new FakeWordPress({ posts: { events: [{ id: 1, title: 'Harbour Run', meta: {} }] } }).start();
    t = await createTestApp({
      env: { METRICS_TOKEN: TOKEN, ...wp.env },
    });
  });
  afterAll(async () => {
    await t.close();
    await wp.close();
  });

  const scrape = async () => {
    // No session, no Origin: a scraper has neither.
    const res = await t.agent().get('/metrics').unset('Origin').set('Authorization', `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    return res.text;
  };

  it('refuses a scrape without the token, with another token or another scheme (401)', async () => {
    const refusals = [
      await t.agent().get('/metrics'),
      await t.agent().get('/metrics').set('Authorization', 'Bearer wrong-token-0123456789-abcdef'),
      await t.agent().get('/metrics').set('Authorization', `Bearer ${TOKEN}x`),
      await t
        .agent()
        .get('/metrics')
        .set('Authorization', `Bearer ${TOKEN.slice(0, -1)}`),
      await t
        .agent()
        .get('/metrics')
        .set('Authorization', `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.text).not.toContain('pacer_');
    }
    // A signed-in session is no substitute for the token.
    const { agent } = await t.signedInAgent();
    expect((await agent.get('/metrics')).status).toBe(401);
  });

  it('answers every metric in the text format, requests labelled by route pattern and status', async () => {
    const { agent } = await t.signedInAgent();
    const before = await scrape();
    const missingId = 987654321;
    const label = { route: '/api/events/:id', method: 'GET', status: '404' };
    expect((await agent.get(`/api/events/${missingId}`)).status).toBe(404);
    expect((await agent.get(`/api/events/${missingId + 1}`)).status).toBe(404);
    expect((await agent.get('/events/123')).status).toBeLessThan(500);
    expect((await agent.get('/api/events')).status).toBe(200);

    const res = await t.agent().get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    for (const name of [
      'pacer_http_request_duration_seconds',
      'pacer_db_pool_acquire_wait_seconds',
      'pacer_db_pool_acquire_timeouts_total',
      'pacer_db_pool_pending_acquires',
      'pacer_db_pool_used_connections',
      'pacer_job_queue_depth',
      'pacer_job_outcomes_total',
      'pacer_import_rows_total',
      'pacer_sync_runs_total',
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ])
      expect(text).toContain(`# TYPE ${name} `);
    const count = (labels: Record<string, string>, from = text) => valueOf(from, 'pacer_http_request_duration_seconds_count', labels);
    expect(count(label) - count(label, before)).toBe(2);
    expect(count({ route: '/api/events', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(count({ route: '/events/:id', method: 'GET' })).toBeGreaterThanOrEqual(1);
    // Never the URL itself: each id would be a series of its own.
    expect(text).not.toContain(String(missingId));
    expect(valueOf(text, 'pacer_db_pool_acquire_wait_seconds_count')).toBeGreaterThan(0);
  });

  it('reports the job queue depth by type and state, read at scrape time', async () => {
    const now = t.clock.now();
    const held = { params: {}, trigger: 'web', startedBy: null, activeKey: null, now, runAfter: new Date(now.getTime() + 86_400_000) };
    await insertJob(t.ctx.db, { type: 'newsletter', ...held });
    await insertJob(t.ctx.db, { type: 'newsletter', ...held });
    const text = await scrape();
    expect(valueOf(text, 'pacer_job_queue_depth', { type: 'newsletter', state: 'queued' })).toBe(2);
    expect(valueOf(text, 'pacer_job_queue_depth', { type: 'newsletter', state: 'running' })).toBe(0);
    expect(text).toMatch(/^pacer_job_queue_depth\{type="sync",state="queued"\} 0$/m);
    await t.ctx.db('jobs').where({ type: 'newsletter' }).del();
    expect(valueOf(await scrape(), 'pacer_job_queue_depth', { type: 'newsletter', state: 'queued' })).toBe(0);
  });

  it('counts import rows by outcome, job outcomes by type and sync runs by result', async () => {
    const { agent } = await t.signedInAgent();
    const before = await scrape();
    const parsed = parseImportCsv('brands', `${brandsText()}Nameless Brand,Al,Lee,not-an-address\r\n`);
    if (!parsed.ok) throw new Error(parsed.message);
    expect((await agent.post('/api/brands/bulk-import').send(parsed.payload)).status).toBe(200);
    expect((await agent.post('/api/sync/events')).status).toBe(200);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(delta('pacer_import_rows_total', { type: 'brands', outcome: 'applied' })).toBe(2);
    expect(delta('pacer_import_rows_total', { type: 'brands', outcome: 'failed' })).toBe(1);
    expect(delta('pacer_job_outcomes_total', { type: 'import', outcome: 'succeeded' })).toBe(1);
    expect(delta('pacer_sync_runs_total', { kind: 'events', result: 'succeeded' })).toBe(1);
  });
});

describe('database pool metrics', () => {
  it('counts an acquire that timed out waiting for a connection', async () => {
    const t = await createTestApp();
    // A pool of one connection that gives up after 100 ms: a query outside a transaction holding it must wait.
    const db =
      testDialect === 'sqlite'
        ? createDatabase({ url: t.database.url, acquireTimeoutMs: 100 })
        : createDatabase({ url: t.database.url, acquireTimeoutMs: 100, poolMax: 1 });
    try {
      startMetrics(db);
      const timeouts = async () => valueOf((await renderMetrics(t.ctx.db)).text, 'pacer_db_pool_acquire_timeouts_total');
      const before = await timeouts();
      await withTransaction({ db }, async (trx) => {
        await trx.raw('SELECT 1');
        await expect(db.raw('SELECT 1')).rejects.toThrow(/Timeout acquiring a connection/);
      });
      expect((await timeouts()) - before).toBe(1);
    } finally {
      await db.destroy();
      await t.close();
    }
  });
});
