import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, updateUserByEmail } from '@services/users/service.js';
import { cliActor } from '@services/context.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app.js';
import { startMailCatcher, type MailCatcher } from '../helpers/smtp.js';
import { waitUntil } from '../helpers/wait.js';

const APP_URL = 'https://crm.example.org';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';

describe('self-service password reset and new-browser notices', () => {
  let mail: MailCatcher;
  let t: TestApp;
  beforeAll(async () => {
    mail = await startMailCatcher();
    t = await createTestApp({
      env: { SMTP_URL: mail.url, MAIL_FROM: 'Pacer CRM <crm@example.org>', APP_URL, TRUST_PROXY: 'loopback' },
      throttle: { perAccountAndIp: 3, perIp: 100, windowMs: 15 * 60_000 },
    });
  });
  afterAll(async () => {
    await t.close();
    await mail?.close();
  });

  const mailsTo = (address: string) => mail.received.filter((mail) => mail.to.includes(address));

  async function askReset(email: string, ip = '10.0.0.1') {
    const started = performance.now();
    const res = await t.agent().set('X-Forwarded-For', ip).post('/api/password-reset').send({ email });
    return { res, ms: performance.now() - started };
  }

  it('offers "Forgot password?" on the sign-in page', async () => {
    await createUser(t.ctx, { email: 'first@example.org', password: TEST_PASSWORD, firstName: 'Fir', lastName: 'St' });
    const page = await t.agent().get('/');
    expect(page.text).toContain('Forgot password?');
    expect(page.text).toContain('"resetByEmail":true');
  });

  it('answers 202 alike for a known and an unknown address, and emails a one-time link only to the known one', async () => {
    await createUser(t.ctx, { email: 'forgot@example.org', password: TEST_PASSWORD, firstName: 'For', lastName: 'Got' });
    const { agent: phone } = await t.signedInAgent('forgot@example.org');
    const known = await askReset('Forgot@Example.org');
    const unknown = await askReset('nobody@example.org');
    for (const { res, ms } of [known, unknown]) {
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ resetByEmail: true });
      expect(ms).toBeGreaterThanOrEqual(240);
    }
    await waitUntil(() => mailsTo('forgot@example.org').length === 1, 'the reset link to reach the SMTP server');
    const link = /https:\/\/crm\.example\.org\/set-password\/([A-Za-z0-9_-]{43})/.exec(mailsTo('forgot@example.org')[0]!.body);
    expect(link).not.toBeNull();
    expect(mailsTo('nobody@example.org')).toHaveLength(0);

    // Using it sets the password, signs in, and ends the user's other sessions; it works once.
    const here = t.agent();
    const set = await here.post(`/api/set-password/${link![1]}`).send({ password: 'a brand new password' });
    expect(set.status, set.text).toBe(200);
    expect((await phone.get('/api/me')).status).toBe(401);
    expect((await here.get('/api/me')).status).toBe(200);
    expect((await t.agent().post(`/api/set-password/${link![1]}`).send({ password: 'another new password' })).status).toBe(410);
    const history = (await here.get('/api/me/sign-ins')).body as Array<{ kind: string }>;
    expect(history[0]!.kind).toBe('password_reset');
  });

  it('sends nothing to a deactivated account, with the same answer', async () => {
    await createUser(t.ctx, { email: 'gone@example.org', password: TEST_PASSWORD, firstName: 'Go', lastName: 'Ne' });
    await updateUserByEmail(t.ctx, cliActor(), 'gone@example.org', { isActive: false });
    const { res } = await askReset('gone@example.org', '10.0.0.2');
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ resetByEmail: true });
    // A later request for a known address arrives, and nothing came for the deactivated one before it.
    await createUser(t.ctx, { email: 'marker@example.org', password: TEST_PASSWORD, firstName: 'Mar', lastName: 'Ker' });
    await askReset('marker@example.org', '10.0.0.2');
    await waitUntil(() => mailsTo('marker@example.org').length === 1, 'the marker mail');
    expect(mailsTo('gone@example.org')).toHaveLength(0);
  });

  it('throttles per address and per client, known or not', async () => {
    for (let i = 0; i < 3; i++) expect((await askReset('spray@example.org', `10.1.0.${i}`)).res.status).toBe(202);
    expect((await askReset('spray@example.org', '10.1.0.9')).res.status).toBe(429);
    for (let i = 0; i < 3; i++) expect((await askReset(`x${i}@example.org`, '10.2.0.1')).res.status).toBe(202);
    expect((await askReset('x9@example.org', '10.2.0.1')).res.status).toBe(429);
    expect((await askReset('not an address', '10.3.0.1')).res.status).toBe(400);
  });

  it('emails a user when they sign in from a browser not seen before', async () => {
    await createUser(t.ctx, { email: 'roam@example.org', password: TEST_PASSWORD, firstName: 'Ro', lastName: 'Am' });
    const signIn = (userAgent: string) =>
      t.agent().set('User-Agent', userAgent).post('/api/login').send({ email: 'roam@example.org', password: TEST_PASSWORD });
    expect((await signIn(CHROME)).status).toBe(200); // the first sign-in ever: nothing to compare with
    expect((await signIn(FIREFOX)).status).toBe(200);
    await waitUntil(() => mailsTo('roam@example.org').length === 1, 'the new-browser notice');
    expect(mailsTo('roam@example.org')[0]!.body).toMatch(/Firefox 133 on Windows/);
    expect((await signIn(CHROME)).status).toBe(200);
    expect((await signIn(SAFARI)).status).toBe(200);
    await waitUntil(() => mailsTo('roam@example.org').length >= 2, 'the second notice');
    expect(mailsTo('roam@example.org')).toHaveLength(2);
    expect(mailsTo('roam@example.org')[1]!.body).toMatch(/Safari 17 on iOS/);
  });
});

describe('self-service password reset without APP_URL', () => {
  it('answers that reset by email is not offered, and the sign-in page says to ask an admin', async () => {
    const t = await createTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: 'crm@example.org' } });
    try {
      await createUser(t.ctx, { email: 'known@example.org', password: TEST_PASSWORD, firstName: 'Kn', lastName: 'Own' });
      const res = await t.agent().post('/api/password-reset').send({ email: 'known@example.org' });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ resetByEmail: false });
      expect(await t.database.db('set_password_links').count({ n: '*' }).first()).toEqual({ n: 0 });
      expect((await t.agent().get('/')).text).toContain('"resetByEmail":false');
    } finally {
      await t.close();
    }
  });
});
