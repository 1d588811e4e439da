import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startWebhookDelivery, stopWebhookDelivery } from '@services/webhooks/runner.js';
import type { NewWebhookEndpoint, WebhookEndpointDetail } from '@shared/schemas/webhooks.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { TEST_REDIS_URL, testQueuePrefix } from '../helpers/redis.js';
import { waitUntil } from '../helpers/wait.js';
import { Receiver } from '../helpers/webhook-receiver.js';

describe('webhook deliveries as BullMQ jobs on Redis (queue mode)', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];
  let receiver: Receiver;

  beforeAll(async () => {
    t = await createTestApp({
      env: { REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: testQueuePrefix(), WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_BACKOFF_MS: '30' },
    });
    admin = (await t.signedInAgent('queue-hooks@example.org', 'admin')).agent;
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await stopWebhookDelivery(t.ctx);
    await receiver.close();
    await t.close();
  });

  it('queues the delivery from the web process and sends it from a worker, retrying and keeping the order', async () => {
    // The web process only queues: nothing is sent until a worker runs.
    await startWebhookDelivery(t.ctx, 'server');
    const hook = (
      await admin
        .post('/api/webhooks')
        .send({ url: receiver.url, events: ['record.*'] })
        .expect(201)
    ).body as NewWebhookEndpoint;
    receiver.secret = hook.secret;
    receiver.answer = (request) => (request <= 2 ? 503 : 200);
    const id = (await admin.post('/api/brands').send({ brandName: 'Queued Hooks' }).expect(201)).body.id as number;
    await admin.put(`/api/brands/${id}`).send({ brandName: 'Queued Hooks 2' }).expect(200);
    const keys = await waitForQueued(t);
    expect(keys).toBeGreaterThan(0);
    expect(receiver.requests).toBe(0);
    await stopWebhookDelivery(t.ctx);

    await startWebhookDelivery(t.ctx, 'worker');
    await waitUntil(() => receiver.received.length === 2, 'both deliveries from the worker');
    expect(receiver.refused).toEqual([]);
    expect(receiver.requests).toBe(4);
    expect(receiver.received.map((message) => message.type)).toEqual(['record.created', 'record.updated']);
    const { deliveries } = (await admin.get(`/api/webhooks/${hook.id}`).expect(200)).body as WebhookEndpointDetail;
    expect(deliveries.map((delivery) => [delivery.state, delivery.attempts])).toEqual([
      ['delivered', 1],
      ['delivered', 3],
    ]);
  });

  it('sends what a worker holds at once as batches, the changes of each record in the order they were made', async () => {
    await stopWebhookDelivery(t.ctx);
    receiver.answer = () => 200;
    const before = receiver.received.length;
    // Queued while no worker runs, so the worker takes them many at a time, several of one record in a batch.
    await startWebhookDelivery(t.ctx, 'server');
    const ids: number[] = [];
    for (const name of ['Batch One', 'Batch Two', 'Batch Three'])
      ids.push((await admin.post('/api/brands').send({ brandName: name }).expect(201)).body.id as number);
    for (const round of [1, 2])
      for (const id of ids)
        await admin
          .put(`/api/brands/${id}`)
          .send({ brandName: `Batch ${id} ${round}` })
          .expect(200);
    await waitForQueued(t);
    await stopWebhookDelivery(t.ctx);

    await startWebhookDelivery(t.ctx, 'worker');
    await waitUntil(() => receiver.received.length === before + 9, 'the nine deliveries from the worker');
    const got = receiver.received.slice(before);
    for (const id of ids)
      expect(
        got.filter((message) => message.data.id === id).map((message) => message.type),
        `brand ${id}`,
      ).toEqual(['record.created', 'record.updated', 'record.updated']);
    const names = (id: number) =>
      got
        .filter((message) => message.data.id === id && message.type === 'record.updated')
        .map((message) => (message.data.changes as { brandName: { to: string } }).brandName.to);
    for (const id of ids) expect(names(id)).toEqual([`Batch ${id} 1`, `Batch ${id} 2`]);
  });

  it('keeps a delivery Redis refused at commit, logs it, and the sweep of the worker sends it', async () => {
    await stopWebhookDelivery(t.ctx);
    receiver.answer = () => 200;
    const before = receiver.received.length;
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    // Redis fails the one addBulk of the commit's notice (as a dropped connection or an error answer would).
    const refused = vi.spyOn(Queue.prototype, 'addBulk').mockRejectedValueOnce(new Error('Redis is down'));
    try {
      await startWebhookDelivery(t.ctx, 'server');
      const id = (await admin.post('/api/brands').send({ brandName: 'Refused By Redis' }).expect(201)).body.id as number;
      await waitUntil(
        () => t.logLines.some((line) => line.includes('could not hand webhook deliveries over')),
        'the warning about the refused hand-over',
      );
      expect(refused).toHaveBeenCalledTimes(1);
      expect(unhandled).toEqual([]);
      await stopWebhookDelivery(t.ctx);

      // Still waiting in the database: the worker's sweep queues and sends it.
      await startWebhookDelivery(t.ctx, 'worker');
      await waitUntil(() => receiver.received.length > before, 'the refused delivery, sent by the worker');
      expect(receiver.received.slice(before).map((message) => [message.type, message.data.id])).toEqual([['record.created', id]]);
      expect(unhandled).toEqual([]);
    } finally {
      refused.mockRestore();
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

/** The webhook queue's keys in Redis once the web process has queued a job. */
async function waitForQueued(t: TestApp): Promise<number> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(TEST_REDIS_URL);
  try {
    let count = 0;
    await waitUntil(async () => {
      count = (await redis.keys(`${t.config.jobs.queuePrefix}:webhooks:*`)).length;
      return count > 0;
    }, 'a queued webhook job');
    return count;
  } finally {
    redis.disconnect();
  }
}
