import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '@db/transaction.js';
import { createRecord, updateRecord } from '@services/records/service.js';
import { FAILING_LIMIT_MS } from '@services/webhooks/runner.js';
import { startWebhookDelivery, stopWebhookDelivery } from '@services/webhooks/runner.js';
import { deleteWebhook, getWebhook, listWebhooks } from '@services/webhooks/service.js';
import type { Actor } from '@services/context.js';
import type { NewWebhookEndpoint, WebhookEndpointDetail } from '@shared/schemas/webhooks.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { waitUntil } from '../helpers/wait.js';
import { Receiver } from '../helpers/webhook-receiver.js';

const cli: Actor = { userId: null, source: 'cli', role: 'admin' };

describe('webhooks: signed deliveries after commit', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_BACKOFF_MS: '30' } });
    admin = (await t.signedInAgent('hooks-admin@example.org', 'admin')).agent;
    await startWebhookDelivery(t.ctx, 'server');
  });
  afterEach(async () => {
    // One endpoint at a time: each test's receiver sees only its own events.
    for (const row of (await listWebhooks(t.ctx, cli)).items) await deleteWebhook(t.ctx, cli, row.id);
  });
  afterAll(async () => {
    await stopWebhookDelivery(t.ctx);
    for (const receiver of receivers) await receiver.close();
    await t.close();
  });

  async function endpoint(
    events: string[],
    answer?: (request: number) => number,
  ): Promise<{ receiver: Receiver; hook: NewWebhookEndpoint }> {
    const receiver = await new Receiver().start();
    receivers.push(receiver);
    if (answer) receiver.answer = answer;
    const res = await admin.post('/api/webhooks').send({ url: receiver.url, events });
    expect(res.status).toBe(201);
    const hook = res.body as NewWebhookEndpoint;
    receiver.secret = hook.secret;
    return { receiver, hook };
  }

  it('answers the secret once: whsec_ and base64 of 24+ bytes; the list never shows it', async () => {
    const { hook } = await endpoint(['record.*']);
    expect(Object.keys(hook).sort()).toEqual(['events', 'id', 'secret', 'url']);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(hook.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    const list = (await admin.get('/api/webhooks').expect(200)).body as { items: Array<Record<string, unknown>> };
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      id: hook.id,
      url: hook.url,
      events: ['record.*'],
      enabled: true,
      createdBy: 'hooks-admin@example.org',
    });
    expect(JSON.stringify(list.items)).not.toContain(hook.secret);
  });

  it('delivers created, updated and deleted, signed, with the record and the changed fields, in order', async () => {
    const { receiver } = await endpoint(['record.created', 'record.updated', 'record.deleted']);
    const id = (await admin.post('/api/brands').send({ brandName: 'Signal Shoes' }).expect(201)).body.id as number;
    const stored = (await admin.get(`/api/brands/${id}`)).body as Record<string, unknown>;
    await admin.put(`/api/brands/${id}`).send({ brandName: 'Signal Shoes 2' }).expect(200);
    await admin.put(`/api/brands/${id}`).send({ brandName: 'Signal Shoes 3' }).expect(200);
    await admin.delete(`/api/brands/${id}`).expect(204);
    await waitUntil(() => receiver.received.length === 4, 'four deliveries');
    expect(receiver.refused).toEqual([]);
    expect(receiver.received.map((message) => message.type)).toEqual([
      'record.created',
      'record.updated',
      'record.updated',
      'record.deleted',
    ]);
    const [created, updated, again, deleted] = receiver.received;
    expect(created!.data).toMatchObject({ type: 'brand', id, record: { id, brandName: 'Signal Shoes' } });
    expect(updated!.data).toMatchObject({
      type: 'brand',
      id,
      record: { id, brandName: 'Signal Shoes 2' },
      changes: { brandName: { from: 'Signal Shoes', to: 'Signal Shoes 2' } },
    });
    expect(again!.data.changes).toEqual({ brandName: { from: 'Signal Shoes 2', to: 'Signal Shoes 3' } });
    expect(deleted!.data).toMatchObject({ type: 'brand', id, record: { id, brandName: 'Signal Shoes 3' } });
    expect(stored.brandName).toBe('Signal Shoes');
    expect(new Set(receiver.received.map((message) => message.id)).size).toBe(4);
  });

  it('sends nothing for a change that rolled back', async () => {
    const { receiver } = await endpoint(['*']);
    await expect(
      withTransaction(t.ctx, async (trx) => {
        await createRecord({ ...t.ctx, db: trx as never }, cli, 'brand', { brandName: 'Never Was' });
        throw new Error('roll it back');
      }),
    ).rejects.toThrow('roll it back');
    // A change after it is delivered: had the rolled-back one been queued, it would have come first.
    await admin.post('/api/brands').send({ brandName: 'Really Is' }).expect(201);
    await waitUntil(() => receiver.received.length === 1, 'the committed change');
    expect((receiver.received[0]!.data.record as { brandName: string }).brandName).toBe('Really Is');
    expect(await t.database.db('webhook_deliveries').whereRaw('?? like ?', ['body', '%Never Was%']).first()).toBeUndefined();
  });

  it('retries a receiver that fails twice, then succeeds; the log shows attempts, answer code and a body cut to 1 KB', async () => {
    const { receiver, hook } = await endpoint(['record.created'], (request) => (request <= 2 ? 503 : 204));
    await admin.post('/api/events').send({ eventName: 'Retry Run' }).expect(201);
    await waitUntil(() => receiver.received.length === 1, 'the third attempt');
    expect(receiver.requests).toBe(3);
    expect(receiver.refused).toEqual([]);
    const detail = (await admin.get(`/api/webhooks/${hook.id}`).expect(200)).body as WebhookEndpointDetail;
    await waitUntil(
      async () => ((await admin.get(`/api/webhooks/${hook.id}`)).body as WebhookEndpointDetail).deliveries[0]!.state === 'delivered',
      'the log',
    );
    const [delivery] = ((await admin.get(`/api/webhooks/${hook.id}`)).body as WebhookEndpointDetail).deliveries;
    expect(delivery).toMatchObject({ eventType: 'record.created', state: 'delivered', attempts: 3, responseStatus: 204 });
    expect(delivery!.durationMs).toBeGreaterThanOrEqual(0);
    expect(detail.endpoint.failingSince === null || typeof detail.endpoint.failingSince === 'string').toBe(true);
    expect(((await admin.get(`/api/webhooks/${hook.id}`)).body as WebhookEndpointDetail).endpoint.failingSince).toBeNull();
  });

  it('keeps the order of one record while an earlier change is being retried', async () => {
    const { receiver } = await endpoint(['record.*'], (request) => (request <= 2 ? 500 : 200));
    const id = (await admin.post('/api/media').send({ mediaName: 'Order Weekly' }).expect(201)).body.id as number;
    for (let i = 1; i <= 3; i++)
      await admin
        .put(`/api/media/${id}`)
        .send({ mediaName: `Order Weekly ${i}` })
        .expect(200);
    await waitUntil(() => receiver.received.length === 4, 'all four changes');
    expect(receiver.received.map((message) => message.type)).toEqual([
      'record.created',
      'record.updated',
      'record.updated',
      'record.updated',
    ]);
    expect(receiver.received.map((message) => (message.data.record as { mediaName: string }).mediaName)).toEqual([
      'Order Weekly',
      'Order Weekly 1',
      'Order Weekly 2',
      'Order Weekly 3',
    ]);
  });

  it('sends changes made together as one batch: one record in order, and a failure in it logged on its own', async () => {
    const { receiver, hook } = await endpoint(['record.*'], (request) => (request === 2 ? 500 : 200));
    // Written back to back, within one gathering of the runner: they are claimed, sent and settled together.
    const first = await createRecord(t.ctx, cli, 'brand', { brandName: 'Batch One' });
    await updateRecord(t.ctx, cli, 'brand', String(first.id), { brandName: 'Batch One Again' });
    const second = await createRecord(t.ctx, cli, 'brand', { brandName: 'Batch Two' });
    const third = await createRecord(t.ctx, cli, 'brand', { brandName: 'Batch Three' });
    await waitUntil(() => receiver.received.length === 4, 'four changes');
    expect(receiver.refused).toEqual([]);
    const ofFirst = receiver.received.filter((message) => message.data.id === first.id);
    expect(ofFirst.map((message) => (message.data.record as { brandName: string }).brandName)).toEqual(['Batch One', 'Batch One Again']);
    expect(new Set(receiver.received.map((message) => message.data.id))).toEqual(new Set([first.id, second.id, third.id]));
    const log = async () => (await getWebhook(t.ctx, cli, hook.id)).deliveries;
    await waitUntil(async () => (await log()).every((delivery) => delivery.state === 'delivered'), 'every delivery settled');
    const deliveries = await log();
    expect(deliveries).toHaveLength(4);
    // The one answered 500 was tried again; the others of its batch were settled once, each with its own answer.
    expect(deliveries.map((delivery) => delivery.attempts).sort()).toEqual([1, 1, 1, 2]);
    for (const delivery of deliveries) {
      expect(delivery).toMatchObject({ responseStatus: 200, responseBody: 'ok', error: null });
      expect(delivery.durationMs).toBeGreaterThanOrEqual(0);
      expect(delivery.deliveredAt).not.toBeNull();
    }
  });

  it('tells of a finished import and a failed job, written when the job ends', async () => {
    const { receiver } = await endpoint(['import.finished', 'job.failed']);
    const rows = { data: [{ Brand: 'Imported Hooks', 'First Name': 'I', 'Last Name': 'Mport', Email: 'imp@example.org' }], lines: [2] };
    await admin.post('/api/brands/bulk-import').send(rows).expect(200);
    await waitUntil(() => receiver.received.length === 1, 'import.finished');
    expect(receiver.received[0]).toMatchObject({
      type: 'import.finished',
      data: { jobType: 'import', params: { kind: 'brands' }, state: 'succeeded', result: { brandsCreated: 1, contactsCreated: 1 } },
    });
    await admin.post('/api/brands/bulk-import').attach('file', Buffer.from('Name,Email\nx,y@example.org\n'), 'brands.csv').expect(400);
    await waitUntil(() => receiver.received.length === 2, 'job.failed');
    expect(receiver.received[1]).toMatchObject({ type: 'job.failed', data: { jobType: 'import', error: { status: 400 } } });
  });

  it('replays one delivery and sends a test event', async () => {
    const { receiver, hook } = await endpoint(['contact.*']);
    const brand = (await admin.post('/api/brands').send({ brandName: 'Contact Owner' }).expect(201)).body.id as number;
    await admin
      .post('/api/contacts')
      .send({ entityType: 'brand', entityId: brand, firstName: 'Ada', lastName: 'Lane', email: 'ada@example.org' })
      .expect(201);
    await waitUntil(() => receiver.received.length === 1, 'the contact');
    expect(receiver.received[0]).toMatchObject({ type: 'contact.created', data: { type: 'contact' } });
    const [delivery] = ((await admin.get(`/api/webhooks/${hook.id}`)).body as WebhookEndpointDetail).deliveries;
    await admin.post(`/api/webhooks/${hook.id}/deliveries/${delivery!.id}/replay`).expect(202);
    await waitUntil(() => receiver.received.length === 2, 'the replay');
    expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);
    await admin.post(`/api/webhooks/${hook.id}/test`).expect(202);
    await waitUntil(() => receiver.received.length === 3, 'the test event');
    expect(receiver.received[2]!.type).toBe('webhook.test');
  });

  it('disables an endpoint that failed for 3 days, says why, and enables it again', async () => {
    const { receiver, hook } = await endpoint(['record.created'], () => 500);
    await admin.post('/api/brands').send({ brandName: 'Failing Forever' }).expect(201);
    await waitUntil(() => receiver.requests >= 1, 'a first failure');
    // Read through the service: three days on, the admin's session has long expired.
    const shown = async () => (await getWebhook(t.ctx, cli, hook.id)).endpoint;
    await waitUntil(async () => (await shown()).failingSince !== null, 'failing since');
    t.clock.advance(FAILING_LIMIT_MS + 1000);
    await waitUntil(async () => !(await shown()).enabled, 'the endpoint disabled', 20_000);
    expect((await shown()).disabledReason).toMatch(/failing every delivery for 3 days/);
    const [failed] = (await getWebhook(t.ctx, cli, hook.id)).deliveries;
    expect(failed).toMatchObject({ state: 'pending', responseStatus: 500 });
    expect(failed!.responseBody).toBe('x'.repeat(1024));
    receiver.answer = () => 200;
    admin = (await t.signedInAgent('hooks-admin@example.org', 'admin')).agent;
    // Admins are told on the page, which shows the endpoint's delivery log too.
    const page = await admin.get(`/settings/webhooks?endpoint=${hook.id}`).expect(200);
    expect(page.text).toContain(`Webhook disabled: ${receiver.url}`);
    expect(page.text).toContain('failing every delivery for 3 days');
    expect(page.text).toContain(`Deliveries to ${receiver.url}`);
    expect(page.text).toContain('record.created');
    const staff = (await t.signedInAgent('hooks-staff@example.org', 'staff')).agent;
    expect((await staff.get('/settings/webhooks')).status).toBe(403);
    await admin.post(`/api/webhooks/${hook.id}/enable`).expect(200);
    await waitUntil(() => receiver.received.length === 1, 'the waiting delivery after enabling', 20_000);
    expect((await shown()).enabled).toBe(true);
  });

  it('refuses URLs resolving to private or loopback addresses unless allowed, and bad input with a 400', async () => {
    const strict = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE: 'false' } });
    try {
      const agent = (await strict.signedInAgent('strict-admin@example.org', 'admin')).agent;
      for (const url of [
        'http://127.0.0.1:9/x',
        'http://localhost/x',
        'http://10.1.2.3/x',
        'http://[::1]/x',
        'http://169.254.169.254/latest',
      ])
        expect((await agent.post('/api/webhooks').send({ url, events: ['*'] })).body.message).toMatch(/private or loopback/);
      expect((await agent.post('/api/webhooks').send({ url: 'ftp://example.org', events: ['*'] })).status).toBe(400);
      expect((await agent.post('/api/webhooks').send({ url: 'https://example.org', events: ['record.nope'] })).status).toBe(400);
      expect((await agent.post('/api/webhooks').send({ url: 'https://example.org', events: [] })).status).toBe(400);
      const staff = (await strict.signedInAgent('strict-staff@example.org', 'staff')).agent;
      expect((await staff.post('/api/webhooks').send({ url: 'https://example.org', events: ['*'] })).status).toBe(403);
      expect((await staff.get('/api/webhooks')).status).toBe(403);
    } finally {
      await strict.close();
    }
  });
});
