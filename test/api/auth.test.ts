import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app.js';

describe('sign-in API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ throttle: { perAccountAndIp: 3, perIp: 50, windowMs: 60_000 } });
  });
  afterAll(async () => t.close());

  it('offers first-run set-up only while no user exists, then answers 403', async () => {
    const agent = t.agent();
    expect((await agent.get('/api/session')).body).toMatchObject({ user: null, needsSetup: true });
    const created = await agent.post('/api/setup').send({ email: 'Admin@Example.org', password: TEST_PASSWORD, firstName: 'Ada', lastName: 'Admin' });
    expect(created.status).toBe(201);
    expect(created.body.user).toMatchObject({ email: 'admin@example.org', firstName: 'Ada' });
    expect((await agent.get('/api/me')).body.user.email).toBe('admin@example.org');
    const again = await t.agent().post('/api/setup').send({ email: 'x@example.org', password: TEST_PASSWORD, firstName: 'X', lastName: 'Y' });
    expect(again.status).toBe(403);
    expect((await t.agent().get('/api/session')).body.needsSetup).toBe(false);
  });

  it('signs in, reports the user, and signs out', async () => {
    const agent = t.agent();
    const res = await agent.post('/api/login').send({ email: 'admin@example.org', password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email: 'admin@example.org', isActive: true });
    expect(res.body.user).not.toHaveProperty('passwordHash');
    expect(res.body.user.lastLogin).toBe(t.clock.now().toISOString());
    expect((await agent.get('/api/me')).status).toBe(200);
    expect((await agent.post('/api/logout')).status).toBe(204);
    expect((await agent.get('/api/me')).status).toBe(401);
  });
});
