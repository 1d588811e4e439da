import bcrypt from 'bcrypt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
    const created = await agent
      .post('/api/setup')
      .send({ email: 'Admin@Example.org', password: TEST_PASSWORD, firstName: 'Ada', lastName: 'Admin' });
    expect(created.status).toBe(201);
    expect(created.body.user).toMatchObject({ email: 'admin@example.org', firstName: 'Ada' });
    expect((await agent.get('/api/me')).body.user.email).toBe('admin@example.org');
    const again = await t
      .agent()
      .post('/api/setup')
      .send({ email: 'x@example.org', password: TEST_PASSWORD, firstName: 'X', lastName: 'Y' });
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

  it('signs in from the sign-in form posted to the page, without JavaScript, and loads that page signed in', async () => {
    const agent = t.agent();
    const postSignIn = (fields: Record<string, string>) =>
      agent
        .post('/brands?page=2')
        .type('form')
        .send(new URLSearchParams({ intent: 'sign-in', ...fields }).toString());
    const screen = await agent.get('/brands?page=2');
    expect(screen.text).toMatch(/<form[^>]* method="post"><input type="hidden" name="intent" value="sign-in"\/>/);

    const wrong = await postSignIn({ email: 'admin@example.org', password: 'not it' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Invalid email or password');
    expect(wrong.text).toContain('"error":"Invalid email or password"');
    expect((await agent.get('/api/me')).status).toBe(401);

    const missing = await postSignIn({ email: 'admin@example.org' });
    expect(missing.status).toBe(400);
    expect((await agent.get('/api/me')).status).toBe(401);

    const signedIn = await postSignIn({ email: 'admin@example.org', password: TEST_PASSWORD });
    expect([signedIn.status, signedIn.headers.location]).toEqual([303, '/brands?page=2']);
    expect((await agent.get('/api/me')).body.user.email).toBe('admin@example.org');
    const page = await agent.get('/brands?page=2');
    expect([page.status, page.text.includes('intent" value="sign-in"')]).toEqual([200, false]);
  });

  it('throttles the page form as it throttles the API, with Retry-After', async () => {
    const agent = t.agent();
    const attempt = () =>
      agent
        .post('/')
        .type('form')
        .send(new URLSearchParams({ intent: 'sign-in', email: 'admin@example.org', password: 'guess' }).toString());
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await attempt());
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 429]);
    expect(answers[3]!.headers['retry-after']).toMatch(/^\d+$/);
    expect(answers[3]!.text).toContain('Too many failed sign-in attempts. Try again later.');
  });
});

describe('first-run set-up input', () => {
  it('refuses an email longer than the column holds with a 400, not a database error', async () => {
    const t = await createTestApp();
    try {
      const email = `${'a'.repeat(64)}@${['b', 'c', 'd', 'e', 'f'].map((ch) => ch.repeat(60)).join('.')}.org`;
      expect(email.length).toBeGreaterThan(320);
      const res = await t.agent().post('/api/setup').send({ email, password: TEST_PASSWORD, firstName: 'A', lastName: 'B' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Email must be at most 320 characters');
      expect((await t.agent().get('/api/session')).body.needsSetup).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('lets only one of two simultaneous set-ups with the same email through', async () => {
    const t = await createTestApp();
    try {
      const body = { email: 'race@example.org', password: TEST_PASSWORD, firstName: 'R', lastName: 'C' };
      const answers = await Promise.all([t.agent().post('/api/setup').send(body), t.agent().post('/api/setup').send(body)]);
      expect(answers.map((res) => res.status).sort()).toEqual([201, 403]);
    } finally {
      await t.close();
    }
  });

  it('refuses set-up once a user exists without hashing the password', async () => {
    const t = await createTestApp();
    try {
      const body = { email: 'first@example.org', password: TEST_PASSWORD, firstName: 'F', lastName: 'A' };
      expect((await t.agent().post('/api/setup').send(body)).status).toBe(201);
      const hash = vi.spyOn(bcrypt, 'hash');
      try {
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            t
              .agent()
              .post('/api/setup')
              .send({ ...body, email: `late${i}@example.org` }),
          ),
        );
        expect(answers.map((res) => res.status)).toEqual(Array(20).fill(403));
        expect(answers[0]!.body.message).toBe('Set-up is already complete: sign in instead');
        expect(hash).not.toHaveBeenCalled();
      } finally {
        hash.mockRestore();
      }
    } finally {
      await t.close();
    }
  });

  it('throttles set-up attempts per address with 429 and Retry-After', async () => {
    const t = await createTestApp({ throttle: { perAccountAndIp: 3, perIp: 50, windowMs: 60_000 } });
    try {
      const setUp = (i: number) =>
        t
          .agent()
          .post('/api/setup')
          .send({ email: `admin${i}@example.org`, password: TEST_PASSWORD, firstName: 'A', lastName: 'B' });
      // Each set-up is undone so the next one reaches the password again: three from one address are let through.
      for (let i = 0; i < 3; i++) {
        expect((await setUp(i)).status).toBe(201);
        await t.ctx.db('sessions').delete();
        await t.ctx.db('users').delete();
      }
      const refused = await setUp(3);
      expect(refused.status).toBe(429);
      expect(refused.body.message).toBe('Too many set-up attempts. Try again later.');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      t.clock.advance(60_000);
      expect((await setUp(4)).status).toBe(201);
    } finally {
      await t.close();
    }
  });
});
