import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeMailchimp } from '../fakes/mailchimp.js';
import { FakeWordPress } from '../fakes/wordpress.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { waitUntil } from '../helpers/wait.js';

describe('integrations API', () => {
  let wp: FakeWordPress;
  let mc: FakeMailchimp;
  let t: TestApp;
  let bare: TestApp;

  beforeAll(async () => {
    wp = await new FakeWordPress({
      posts: { events: [{ id: 1, title: 'Harbour &#038; Bridge', meta: { location_state: 'Narnia' } }] },
    }).start();
    mc = await new FakeMailchimp().start();
    mc.addAudience('Runners Weekly', 'runners1');
    mc.addMember('runners1', { email_address: 'gone@example.org', status: 'unsubscribed' });
    t = await createTestApp({
      env: {
        ...wp.env,
        ...mc.env,
        HTTP_TIMEOUT_MS: '3000',
      },
    });
    bare = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    await bare.close();
    await wp.close();
    await mc.close();
  });

  it('needs a signed-in user', async () => {
    expect((await t.agent().get('/api/wordpress/test')).status).toBe(401);
    expect((await t.agent().post('/api/sync/events')).status).toBe(401);
  });

  it('tests the WordPress connection and gives decoded site info', async () => {
    const { agent } = await t.signedInAgent();
    expect((await agent.get('/api/wordpress/test')).body).toEqual({
      success: true,
      message: 'Connected to Pacer & Friends as Edith Editor',
    });
    expect((await agent.get('/api/wordpress/site-info')).body).toEqual({
      name: 'Pacer & Friends',
      url: wp.url,
      description: 'Runners’ news – races, clubs & pros',
    });
  });

  it('syncs through POST /api/sync/:kind and shows the latest run per kind', async () => {
    const { agent, user } = await t.signedInAgent('syncer@example.org');
    const res = await agent.post('/api/sync/events');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      created: 1,
      updated: 0,
      errors: [
        "Event 'Harbour & Bridge' (WordPress id 1): state 'Narnia' is not one of NSW, VIC, QLD, WA, SA, TAS, ACT, NT, NZ; left empty",
      ],
    });
    expect(typeof res.body.message).toBe('string');
    const overview = (await agent.get('/api/integrations/overview')).body;
    expect(overview).toMatchObject({
      wordpress: { configured: true, url: wp.url, credentials: true },
      mailchimp: { configured: true },
      latestRuns: {
        events: { status: 'succeeded', trigger: 'web', startedBy: user.email, created: 1, full: true },
        professionals: null,
        runclubs: null,
      },
    });
    expect((await agent.get('/api/sync/runs?kind=events')).body.items).toHaveLength(1);
    expect((await agent.get('/api/sync/runs?kind=races')).status).toBe(400);
    const unknown = await agent.post('/api/sync/races');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, code: 'not_found' });
  });

  it('answers 409 while the same sync is running', async () => {
    const { agent } = await t.signedInAgent();
    // WordPress keeps the first sync waiting until the second has had its answer.
    const release = wp.holdAnswers();
    try {
      const before = wp.requests.length;
      const first = agent.post('/api/sync/professionals').then((r) => r);
      await waitUntil(() => wp.requests.length > before, 'the first sync to ask WordPress');
      const second = await agent.post('/api/sync/professionals');
      expect(second.status).toBe(409);
      expect(second.body).toMatchObject({
        success: false,
        code: 'sync_running',
        message: 'A sync of professionals is already running; try again when it has finished',
      });
      release();
      expect((await first).status).toBe(200);
    } finally {
      release();
    }
  });

  it('records a sync job cancelled between pages as a cancelled run, keeping the page written before it', async () => {
    const { agent } = await t.signedInAgent();
    wp.posts['run-clubs'] = Array.from({ length: 150 }, (_, i) => ({
      id: 700 + i,
      title: `Club ${i}`,
      modifiedGmt: '2026-06-01T00:00:00',
    }));
    const pagesAsked = () => wp.requests.filter((path) => path.startsWith('/wp-json/wp/v2/run-clubs')).length;
    // WordPress answers the first page, then keeps the second waiting until the job has been cancelled.
    let release = wp.holdAnswers();
    let id: number;
    try {
      id = (
        await agent
          .post('/api/jobs')
          .send({ type: 'sync', params: { kind: 'runclubs' } })
          .expect(202)
      ).body.id as number;
      await waitUntil(() => pagesAsked() === 1, 'the sync to ask for its first page');
      release();
      release = wp.holdAnswers();
      await waitUntil(() => pagesAsked() === 2, 'the sync to write its first page and ask for the second');
      await agent.post(`/api/jobs/${id}/cancel`).expect(200);
    } finally {
      release();
    }
    await waitUntil(async () => (await agent.get(`/api/jobs/${id}`)).body.state === 'cancelled', 'the job to stop');
    const [run] = (await agent.get('/api/sync/runs?kind=runclubs').expect(200)).body.items;
    expect(run).toMatchObject({
      status: 'cancelled',
      created: 100,
      updated: 0,
      failed: 0,
      message: 'Sync cancelled: 100 created, 0 updated before it stopped',
    });
    expect((await agent.get('/api/integrations/overview')).body.latestRuns.runclubs).toMatchObject({ id: run.id, status: 'cancelled' });
    expect(Number(((await t.ctx.db('run_clubs').count({ n: '*' }).first()) as { n: number | string }).n)).toBe(100);
  });

  it('tests Mailchimp, lists audiences and adds a member without re-subscribing', async () => {
    const { agent } = await t.signedInAgent();
    expect((await agent.get('/api/mailchimp/test')).body).toEqual({
      success: true,
      message: 'Connected to Mailchimp account Pacer Running Co',
      data: { account_name: 'Pacer Running Co', email: 'owner@pacer.example', industry: 'Sports', total_subscribers: 0 },
    });
    expect((await agent.get('/api/mailchimp/audiences')).body).toEqual([
      { id: 'runners1', name: 'Runners Weekly', stats: { member_count: 0 } },
    ]);
    const added = await agent
      .post('/api/mailchimp/audiences/runners1/members')
      .send({ email: 'new@example.org', firstName: 'Nia', lastName: 'New', phone: '', tags: ['Club Lead', ' '] });
    expect(added.body).toEqual({ success: true, message: 'new@example.org was added to the audience', outcome: 'added' });
    expect(mc.member('runners1', 'new@example.org')).toMatchObject({
      status: 'subscribed',
      tags: ['Club Lead'],
      merge_fields: { FNAME: 'Nia', LNAME: 'New' },
    });
    const gone = await agent.post('/api/mailchimp/audiences/runners1/members').send({ email: 'gone@example.org', tags: [] });
    expect(gone.body.outcome).toBe('unsubscribed');
    expect(mc.member('runners1', 'gone@example.org')?.status).toBe('unsubscribed');
  });

  it('answers bad member input and Mailchimp rejections with a clear 4xx', async () => {
    const { agent } = await t.signedInAgent();
    const missing = await agent.post('/api/mailchimp/audiences/runners1/members').send({ firstName: 'X' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Please select an audience and provide an email address');
    const extra = await agent.post('/api/mailchimp/audiences/runners1/members').send({ email: 'a@example.org', admin: true });
    expect(extra.status).toBe(400);
    const notList = await agent.post('/api/mailchimp/audiences/nope/members').send({ email: 'a@example.org' });
    expect(notList.status).toBe(404);
    expect(notList.body).toMatchObject({
      success: false,
      message: 'Mailchimp: Resource Not Found: The requested resource could not be found.',
    });
    const badId = await agent.post('/api/mailchimp/audiences/bad%20id!/members').send({ email: 'a@example.org' });
    expect(badId.status).toBe(400);
  });

  it('reports failed connection tests as {success:false} with the reason', async () => {
    const failing = await createTestApp({
      env: {
        WORDPRESS_URL: wp.url,
        WORDPRESS_USER: wp.user,
        WORDPRESS_APP_PASSWORD: 'wrong',
        MAILCHIMP_API_KEY: 'bad-us1',
        MAILCHIMP_BASE_URL: mc.baseUrl,
      },
    });
    try {
      const { agent } = await failing.signedInAgent();
      const wpTest = await agent.get('/api/wordpress/test');
      expect(wpTest.status).toBe(200);
      expect(wpTest.body).toEqual({
        success: false,
        message: expect.stringContaining('WordPress rejected the username or application password for editor'),
      });
      expect((await agent.get('/api/mailchimp/test')).body).toEqual({
        success: false,
        message: "API Key Invalid: Your API key may be invalid, or you've attempted to access the wrong datacenter.",
      });
      const audiences = await agent.get('/api/mailchimp/audiences');
      expect(audiences.status).toBe(502);
      expect(audiences.body).toMatchObject({ success: false, code: 'upstream_failed' });
    } finally {
      await failing.close();
    }
  });

  it('answers a clear 400 {success:false} when the services are not configured, never a 500', async () => {
    const { agent } = await bare.signedInAgent();
    for (const [method, url] of [
      ['get', '/api/wordpress/test'],
      ['get', '/api/wordpress/site-info'],
      ['post', '/api/sync/runclubs'],
      ['get', '/api/mailchimp/test'],
      ['get', '/api/mailchimp/audiences'],
    ] as const) {
      const res = await agent[method](url);
      expect(res.status, url).toBe(400);
      expect(res.body, url).toMatchObject({ success: false, code: 'not_configured' });
    }
    const member = await agent.post('/api/mailchimp/audiences/x1/members').send({ email: 'a@example.org' });
    expect(member.status).toBe(400);
    expect(member.body.message).toMatch(/MAILCHIMP_API_KEY/);
    expect((await agent.get('/api/integrations/overview')).body).toMatchObject({
      wordpress: { configured: false },
      mailchimp: { configured: false },
    });
  });
});
