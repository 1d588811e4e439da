import express from 'express';
import pino from 'pino';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '@db/knex.js';
import { healthRouter } from '@server/health.js';
import { requestLogging } from '@server/request-log.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('health endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('reports liveness and readiness without a session', async () => {
    expect((await t.agent().get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await t.agent().get('/readyz')).body).toEqual({ status: 'ready' });
  });

  it('answers 503 quickly when the database is unreachable', async () => {
    const unreachable = createDatabase({ url: 'mysql://root@127.0.0.1:1/none', acquireTimeoutMs: 500 });
    const app = express();
    app.use(requestLogging(pino({ level: 'silent' })));
    app.use(healthRouter(unreachable, 1000));
    // Quickly: the refused connection or the 1 s check timer answers; the deadline leaves a loaded machine room.
    const res = await supertest(app).get('/readyz').timeout(10_000);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable', message: 'Database unreachable' });
    expect((await supertest(app).get('/healthz')).status).toBe(200);
    await unreachable.destroy();
  });
});
