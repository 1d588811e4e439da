import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@server/app.js';
import { createUser } from '@services/users/service.js';
import { createTestApp, TEST_ORIGIN, TEST_PASSWORD, testConfig, type TestApp } from '../helpers/app.js';

const OLD_SECRET = 'test-secret-test-secret-test-secret-0123456789';
const NEW_SECRET = 'rotated-secret-rotated-secret-rotated-secret-42';

/** The session cookie (name=value; and its .sig) as a Cookie header, from a Set-Cookie list. */
const cookieHeader = (setCookie: string[] | string | undefined) =>
  ([] as string[])
    .concat(setCookie ?? [])
    .map((line) => line.split(';')[0])
    .join('; ');

describe('SESSION_SECRET_PREVIOUS', () => {
  let t: TestApp;
  let oldCookie: string;
  beforeAll(async () => {
    t = await createTestApp();
    await createUser(t.ctx, { email: 'rotate@example.org', password: TEST_PASSWORD, firstName: 'Ro', lastName: 'Tate' });
    const res = await t.agent().post('/api/login').send({ email: 'rotate@example.org', password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    oldCookie = cookieHeader(res.headers['set-cookie']);
  });
  afterAll(() => t.close());

  const serverWith = (env: Record<string, string>) =>
    createApp({ ...t.ctx, config: { ...testConfig({ DATABASE_URL: t.database.url, UPLOAD_DIR: t.uploadDir, ...env }) } });
  const me = (app: ReturnType<typeof createApp>, cookie: string) =>
    supertest(app).get('/api/me').set('Host', '127.0.0.1').set('Origin', TEST_ORIGIN).set('Cookie', cookie);

  it('keeps a cookie signed with the previous secret valid, and signs it again with the new one', async () => {
    const rotated = serverWith({ SESSION_SECRET: NEW_SECRET, SESSION_SECRET_PREVIOUS: OLD_SECRET });
    const res = await me(rotated, oldCookie);
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe('rotate@example.org');
    // The re-signed cookie verifies with the new secret alone (once the previous one is removed).
    const resigned = cookieHeader(res.headers['set-cookie']);
    expect(resigned).toMatch(/pacer\.sig=/);
    const newOnly = serverWith({ SESSION_SECRET: NEW_SECRET });
    expect((await me(newOnly, `${oldCookie.split('; ')[0]}; ${resigned.split('; ').find((c) => c.startsWith('pacer.sig='))}`)).status).toBe(
      200,
    );
  });

  it('refuses a cookie of the old secret once the previous secret is no longer set', async () => {
    expect((await me(serverWith({ SESSION_SECRET: NEW_SECRET }), oldCookie)).status).toBe(401);
  });

  it('checks the previous secret like the current one', () => {
    expect(() => testConfig({ SESSION_SECRET_PREVIOUS: 'short' })).toThrow(/SESSION_SECRET_PREVIOUS: must be at least 32 characters/);
  });
});
