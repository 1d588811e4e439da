import pino from 'pino';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '@db/knex.js';
import { LoginThrottle } from '@services/auth/login-throttle.js';
import { createApp } from '@server/app.js';
import { createTestApp, FakeClock, TEST_ORIGIN, testConfig, type TestApp } from '../helpers/app.js';

describe('bad input and failures never become 500s with internals', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('rejects unknown and prototype-polluting keys with 400', async () => {
    for (const body of [
      '{"email":"a@example.org","password":"x","isAdmin":true}',
      '{"email":"a@example.org","password":"x","__proto__":{"polluted":true}}',
      '{"email":"a@example.org","password":"x","constructor":{"prototype":{"polluted":true}}}',
      '{"email":["a@example.org"],"password":{"$ne":""}}',
    ]) {
      const res = await t.agent().post('/api/login').set('Content-Type', 'application/json').send(body);
      expect(res.status, body).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers malformed JSON with a readable 400 and no stack trace', async () => {
    const res = await t.agent().post('/api/login').set('Content-Type', 'application/json').send('{"email": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'The request body is not valid JSON', code: 'bad_json' });
    expect(res.text).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it('answers a path with broken %-encoding with a 400', async () => {
    const { agent } = await t.signedInAgent();
    for (const path of ['/api/events/%E0%A4%A', '/api/contacts/event/%ZZ']) {
      const res = await agent.get(path);
      expect(res.status, path).toBe(400);
      expect(res.body).toEqual({ message: 'The request could not be read', code: 'bad_request' });
    }
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const { agent } = await t.signedInAgent();
    const res = await agent.get('/api/nope');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('answers 503 quickly when the database is down', async () => {
    const db = createDatabase({ url: 'mysql://root@127.0.0.1:1/none', acquireTimeoutMs: 400 });
    const app = createApp({
      db,
      log: pino({ level: 'silent' }),
      config: testConfig(),
      clock: new FakeClock(),
      throttle: new LoginThrottle(),
      assets: { entry: '/assets/x.js', css: [], preload: [], auth: { entry: '/assets/y.js', preload: [] } },
    });
    // Quickly: a deadline ten times the 400 ms acquire timeout (room for a loaded machine), yet below the 5 s default.
    const res = await supertest(app).get('/api/session').set('Host', '127.0.0.1').set('Origin', TEST_ORIGIN).timeout(4_000);
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('unavailable');
    await db.destroy();
  });
});
