import { createHash } from 'node:crypto';
import bcrypt from 'bcrypt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliActor } from '@services/context.js';
import { createUser, setPassword, updateUserByEmail } from '@services/users/service.js';
import { createTestApp, TEST_ORIGIN, TEST_PASSWORD, type TestApp } from '../helpers/app.js';

function sessionCookieOf(setCookie: string[] | string | undefined): string {
  const cookies = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return cookies
    .map((c) => c.split(';')[0]!)
    .filter((c) => c.startsWith('pacer'))
    .join('; ');
}

describe('sessions and sign-in security', () => {
  let t: TestApp;
  const email = 'casey@example.org';

  beforeAll(async () => {
    t = await createTestApp({ throttle: { perAccountAndIp: 5, perIp: 8, windowMs: 60_000 }, env: { TRUST_PROXY: 'loopback' } });
    await createUser(t.ctx, { email, password: TEST_PASSWORD, firstName: 'Casey', lastName: 'Runner' });
  });
  afterAll(async () => t.close());

  async function login(ip = '10.0.0.1', password = TEST_PASSWORD, address = email) {
    return (
      t.app &&
      (await import('supertest'))
        .default(t.app)
        .post('/api/login')
        .set('Host', '127.0.0.1')
        .set('Origin', TEST_ORIGIN)
        .set('X-Forwarded-For', ip)
        .send({ email: address, password })
    );
  }

  it('answers an unknown email exactly like a wrong password', async () => {
    const unknown = await login('10.1.0.1', 'whatever', 'nobody@example.org');
    const wrong = await login('10.1.0.2', 'not the password');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.body).toEqual({ message: 'Invalid email or password', code: 'invalid_credentials' });
  });

  it('spends the same work on unknown and known emails: one bcrypt comparison against a hash of the same cost', async () => {
    // Timing the two would compare noise on a loaded machine; what makes them cost the same is that both run the
    // same comparison, so that is what is checked.
    const compare = vi.spyOn(bcrypt, 'compare');
    try {
      expect((await login('10.2.0.1', 'wrong-password', email)).status).toBe(401);
      expect((await login('10.2.0.1', 'wrong-password', 'ghost@example.org')).status).toBe(401);
      expect(compare).toHaveBeenCalledTimes(2);
      const [known, unknown] = compare.mock.calls.map(([password, hash]) => ({ password, hash: String(hash) }));
      const costOf = (hash: string) => /^\$2[aby]\$(\d{2})\$/.exec(hash)?.[1];
      expect(known!.password).toBe('wrong-password');
      expect(unknown!.password).toBe('wrong-password');
      expect(costOf(unknown!.hash)).toBe(costOf(known!.hash));
      expect(costOf(unknown!.hash)).toBe(String(t.config.bcryptCost).padStart(2, '0'));
    } finally {
      compare.mockRestore();
    }
  });

  it('refuses passwords longer than bcrypt can check (73 bytes) with 400', async () => {
    const res = await login('10.3.0.1', 'é'.repeat(37));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/at most 72 bytes/);
  });

  it('rejects a malformed email and an empty password with the validation messages', async () => {
    const res = await login('10.3.0.2', '', 'not-an-email');
    expect(res.status).toBe(400);
    expect(res.body.issues.map((i: { path: string }) => i.path).sort()).toEqual(['email', 'password']);
    expect(res.body.message).toBe('Invalid email address');
  });

  it('throttles repeated failures per account and IP with 429 and Retry-After, without locking out other IPs', async () => {
    const victim = 'throttle@example.org';
    await createUser(t.ctx, { email: victim, password: TEST_PASSWORD, firstName: 'T', lastName: 'R' });
    for (let i = 0; i < 5; i++) expect((await login('10.4.0.1', 'bad', victim)).status).toBe(401);
    const blocked = await login('10.4.0.1', TEST_PASSWORD, victim);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login('10.4.0.2', TEST_PASSWORD, victim)).status).toBe(200);
    t.clock.advance(61_000);
    expect((await login('10.4.0.1', TEST_PASSWORD, victim)).status).toBe(200);
  });

  it('checks at most the limit of wrong passwords sent at once: each attempt is counted before bcrypt runs', async () => {
    const target = 'parallel@example.org';
    await createUser(t.ctx, { email: target, password: TEST_PASSWORD, firstName: 'Pa', lastName: 'Rallel' });
    const compare = vi.spyOn(bcrypt, 'compare');
    try {
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => login('10.4.1.1', `guess ${i}`, target)));
      const statuses = answers.map((answer) => answer.status);
      // perAccountAndIp is 5: five guesses reach bcrypt, every other one is refused before it.
      expect(compare).toHaveBeenCalledTimes(5);
      expect(statuses.filter((status) => status === 401)).toHaveLength(5);
      expect(statuses.filter((status) => status === 429)).toHaveLength(35);
    } finally {
      compare.mockRestore();
    }
    expect((await login('10.4.1.1', TEST_PASSWORD, target)).status).toBe(429);
  });

  it('does not count right passwords toward the per-IP limit', async () => {
    // perIp is 8: ten sign-ins that succeed from one address stay allowed.
    for (let i = 0; i < 10; i++) expect((await login('10.4.2.1')).status).toBe(200);
    expect((await login('10.4.2.1', 'bad')).status).toBe(401);
  });

  it('throttles one IP spraying many accounts', async () => {
    for (let i = 0; i < 8; i++) await login('10.5.0.1', 'bad', `spray${i}@example.org`);
    expect((await login('10.5.0.1', TEST_PASSWORD)).status).toBe(429);
  });

  it('issues a fresh httpOnly SameSite=Lax cookie holding only a random token, stored hashed', async () => {
    const first = await login('10.6.0.1');
    const second = await login('10.6.0.1');
    const setCookie = first.headers['set-cookie'] as unknown as string[];
    const session = setCookie.find((c) => c.startsWith('pacer='))!;
    expect(session).toMatch(/httponly/i);
    expect(session).toMatch(/samesite=lax/i);
    expect(session).not.toMatch(/domain=/i);
    const payload = JSON.parse(Buffer.from(session.split(';')[0]!.slice('pacer='.length), 'base64').toString('utf8'));
    expect(Object.keys(payload)).toEqual(['token']);
    const stored = (await t.database.db('sessions').select('id')) as Array<{ id: string }>;
    expect(stored.map((row) => row.id)).toContain(createHash('sha256').update(payload.token).digest('hex'));
    expect(stored.map((row) => row.id)).not.toContain(payload.token);
    expect(sessionCookieOf(first.headers['set-cookie'])).not.toBe(sessionCookieOf(second.headers['set-cookie']));
  });

  it('uses a Secure __Host- cookie when serving over HTTPS', async () => {
    const secure = await createTestApp({ env: { COOKIE_SECURE: 'true', TRUST_PROXY: 'loopback' } });
    try {
      await createUser(secure.ctx, { email, password: TEST_PASSWORD, firstName: 'C', lastName: 'R' });
      const res = await secure
        .agent()
        .post('/api/login')
        .set('X-Forwarded-Proto', 'https')
        .set('Origin', 'https://127.0.0.1')
        .send({ email, password: TEST_PASSWORD });
      expect(res.status).toBe(200);
      const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('__Host-pacer='))!;
      expect(cookie).toMatch(/secure/i);
      expect(cookie).toMatch(/path=\//i);
    } finally {
      await secure.close();
    }
  });

  it('refuses to start a session over plain HTTP while the cookie is Secure, instead of a 200 with no cookie', async () => {
    const secure = await createTestApp({ env: { COOKIE_SECURE: 'true', TRUST_PROXY: 'loopback' } });
    try {
      const insecure = {
        status: 403,
        body: {
          code: 'insecure_connection',
          message: 'Signing in needs a secure connection: the session cookie is only kept over HTTPS. Open the site with https://.',
        },
      };
      // First-run set-up starts a session too: refused before the administrator is created.
      const setup = await secure.agent().post('/api/setup').send({ email, password: TEST_PASSWORD, firstName: 'C', lastName: 'R' });
      expect(setup).toMatchObject(insecure);
      expect(setup.headers['set-cookie']).toBeUndefined();
      expect((await secure.agent().get('/api/session')).body.needsSetup).toBe(true);

      await createUser(secure.ctx, { email, password: TEST_PASSWORD, firstName: 'C', lastName: 'R' });
      const login = await secure.agent().post('/api/login').send({ email, password: TEST_PASSWORD });
      expect(login).toMatchObject(insecure);
      expect(login.headers['set-cookie']).toBeUndefined();
      expect(secure.logLines.some((line) => line.includes('refused to start a session over plain HTTP'))).toBe(true);
    } finally {
      await secure.close();
    }
  });

  it('believes X-Forwarded-Proto only from a trusted proxy, and TRUST_PROXY=1 trusts the one in front', async () => {
    const signIn = async (trustProxy: string) => {
      const app = await createTestApp({ env: { COOKIE_SECURE: 'true', TRUST_PROXY: trustProxy } });
      try {
        await createUser(app.ctx, { email, password: TEST_PASSWORD, firstName: 'C', lastName: 'R' });
        const res = await app
          .agent()
          .post('/api/login')
          .set('X-Forwarded-Proto', 'https')
          .set('Origin', 'https://127.0.0.1')
          .send({ email, password: TEST_PASSWORD });
        const cookies = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
        return [res.status, cookies.some((c) => c.startsWith('__Host-pacer=')) ? 'cookie' : 'no cookie'];
      } finally {
        await app.close();
      }
    };
    expect(await signIn('1')).toEqual([200, 'cookie']);
    // Only 10.0.0.1 is trusted and the test connects from loopback: the header is anyone's word.
    expect(await signIn('10.0.0.1')).toEqual([403, 'no cookie']);
  });

  it('stops a copied cookie from working after logout', async () => {
    const res = await login('10.7.0.1');
    const cookie = sessionCookieOf(res.headers['set-cookie']);
    const agent = t.agent();
    expect((await agent.get('/api/me').set('Cookie', cookie)).status).toBe(200);
    expect((await agent.post('/api/logout').set('Cookie', cookie)).status).toBe(204);
    expect((await t.agent().get('/api/me').set('Cookie', cookie)).status).toBe(401);
  });

  it('stops sessions of a deactivated user and after a password change, and refuses their sign-in', async () => {
    const who = 'leaver@example.org';
    await createUser(t.ctx, { email: who, password: TEST_PASSWORD, firstName: 'L', lastName: 'V' });
    const cookie = sessionCookieOf((await login('10.8.0.1', TEST_PASSWORD, who)).headers['set-cookie']);
    await setPassword(t.ctx, who, 'a brand new password');
    expect((await t.agent().get('/api/me').set('Cookie', cookie)).status).toBe(401);
    const again = sessionCookieOf((await login('10.8.0.1', 'a brand new password', who)).headers['set-cookie']);
    await updateUserByEmail(t.ctx, cliActor(), who, { isActive: false });
    expect((await t.agent().get('/api/me').set('Cookie', again)).status).toBe(401);
    const refused = await login('10.8.0.1', 'a brand new password', who);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('Invalid email or password');
  });

  it('ends idle sessions and sessions past their absolute limit', async () => {
    const idleCookie = sessionCookieOf((await login('10.9.0.1')).headers['set-cookie']);
    t.clock.advance(t.config.sessionIdleMs + 1000);
    expect((await t.agent().get('/api/me').set('Cookie', idleCookie)).status).toBe(401);

    const agent = t.agent();
    await agent.post('/api/login').set('X-Forwarded-For', '10.9.0.2').send({ email, password: TEST_PASSWORD });
    // Active use keeps refreshing the idle clock, but not past the absolute limit.
    const step = t.config.sessionIdleMs / 2;
    let elapsed = 0;
    while (elapsed + step < t.config.sessionMaxMs) {
      t.clock.advance(step);
      elapsed += step;
      expect((await agent.get('/api/me')).status).toBe(200);
    }
    t.clock.advance(t.config.sessionMaxMs - elapsed + 1000);
    expect((await agent.get('/api/me')).status).toBe(401);
  });

  it('treats a cookie with a bad signature as signed out', async () => {
    const cookie = sessionCookieOf((await login('10.10.0.1')).headers['set-cookie']);
    const tampered = cookie.replace(/pacer\.sig=([^;]+)/, (_, sig: string) => `pacer.sig=${sig.slice(0, -2)}xx`);
    expect((await t.agent().get('/api/me').set('Cookie', tampered)).status).toBe(401);
  });

  it('refuses writes from another origin, without an origin, or with a non-JSON body', async () => {
    const { agent } = await t.signedInAgent();
    const evil = await agent.post('/api/logout').set('Origin', 'https://evil.example');
    expect(evil.status).toBe(403);
    const bare = await (
      await import('supertest')
    )
      .default(t.app)
      .post('/api/login')
      .set('Host', '127.0.0.1')
      .send({ email, password: TEST_PASSWORD });
    expect(bare.status).toBe(403);
    const text = await agent.post('/api/login').set('Content-Type', 'text/plain').send('{"email":"x"}');
    expect(text.status).toBe(403);
    const viaReferer = await (
      await import('supertest')
    )
      .default(t.app)
      .post('/api/login')
      .set('Host', '127.0.0.1')
      .set('Referer', `${TEST_ORIGIN}/some/page`)
      .set('X-Forwarded-For', '10.11.0.1')
      .send({ email, password: TEST_PASSWORD });
    expect(viaReferer.status).toBe(200);
  });

  it('logs sign-in and origin failures without passwords or cookies', async () => {
    await login('10.12.0.1', 'secret-wrong-password-123');
    const cookie = sessionCookieOf((await login('10.12.0.2')).headers['set-cookie']);
    await t.agent().post('/api/logout').set('Cookie', cookie).set('Origin', 'https://evil.example');
    const logs = t.logLines.join('\n');
    expect(logs).toContain('login_failed');
    expect(logs).toContain('origin_rejected');
    expect(logs).not.toContain('secret-wrong-password-123');
    expect(logs).not.toContain(TEST_PASSWORD);
    expect(logs).not.toContain(cookie.split('=')[1]!.slice(0, 20));
  });

  it('answers /api/me with 401 and a JSON error when signed out, and protects every other /api route', async () => {
    expect((await t.agent().get('/api/me')).body).toEqual({ message: 'Not signed in', code: 'unauthorized' });
    expect((await t.agent().get('/api/stats')).status).toBe(401);
  });
});
