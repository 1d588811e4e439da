import { readFileSync } from 'node:fs';
import express from 'express';
import pino from 'pino';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '@db/knex.js';
import { migrationSource } from '@migrations/index.js';
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
    expect((await t.agent().get('/healthz')).body).toMatchObject({ status: 'ok' });
    expect((await t.agent().get('/readyz')).body).toEqual({ status: 'ready' });
  });

  it('says which release runs, on which migration', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const latest = (await migrationSource.getMigrations([]))
      .map(([name]) => name)
      .sort()
      .at(-1);
    // The migration's name is read in the background (liveness never waits for the database): poll until it is known.
    let body: { status?: string; version?: string; migration?: string | null } = {};
    for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
      body = (await t.agent().get('/healthz').expect(200)).body as typeof body;
      if (body.migration) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(body).toEqual({ status: 'ok', version, migration: latest });
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
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
    const live = await supertest(app).get('/healthz').timeout(10_000);
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ status: 'ok', migration: null });
    await unreachable.destroy();
  });
});
