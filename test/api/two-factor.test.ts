import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode, totpStepAt } from '@services/auth/totp.js';
import { createUser } from '@services/users/service.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app.js';

type Agent = ReturnType<TestApp['agent']>;

describe('two-factor sign-in (TOTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ throttle: { perAccountAndIp: 4, perIp: 100, windowMs: 15 * 60_000 } });
  });
  afterAll(() => t.close());

  const codeNow = (secret: string) => totpCode(secret, totpStepAt(t.clock.now().getTime()));
  const login = (agent: Agent, email: string, code?: string, password = TEST_PASSWORD) =>
    agent.post('/api/login').send(code === undefined ? { email, password } : { email, password, code });

  /** Signs a new user in, turns TOTP on and answers the agent, the secret and the recovery codes. */
  async function enrolled(email: string, role: 'admin' | 'staff' = 'staff') {
    const { agent, user } = await t.signedInAgent(email, role);
    const started = await agent.post('/api/me/totp').send({});
    expect(started.status, started.text).toBe(200);
    const { secret } = started.body as { secret: string };
    const confirmed = await agent.post('/api/me/totp/confirm').send({ code: codeNow(secret) });
    expect(confirmed.status, confirmed.text).toBe(200);
    // The confirming code is used: the next one comes from the next step.
    t.clock.advance(30_000);
    return { agent, user, secret, recoveryCodes: confirmed.body.recoveryCodes as string[] };
  }

  it('enrols with a QR code and the secret, confirmed by a first code, and answers ten recovery codes once', async () => {
    const { agent } = await t.signedInAgent('enrol@example.org');
    expect((await agent.get('/api/me/two-factor')).body).toEqual({
      totpEnabled: false,
      recoveryCodesLeft: 0,
      required: false,
      setupRequired: false,
    });
    const started = await agent.post('/api/me/totp').send({});
    expect(started.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.body.otpauthUrl).toBe(
      `otpauth://totp/Pacer%20CRM:enrol%40example.org?secret=${started.body.secret}&issuer=Pacer+CRM&algorithm=SHA1&digits=6&period=30`,
    );
    expect(started.body.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>$/);

    const wrong = await agent.post('/api/me/totp/confirm').send({ code: '000000' === codeNow(started.body.secret) ? '111111' : '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues[0].path).toBe('code');
    expect((await agent.get('/api/me/two-factor')).body.totpEnabled).toBe(false);

    const confirmed = await agent.post('/api/me/totp/confirm').send({ code: codeNow(started.body.secret) });
    expect(confirmed.status).toBe(200);
    const codes = confirmed.body.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    // Stored hashed: no code appears in the table.
    const stored = (await t.database.db('user_recovery_codes').select('codeHash')) as Array<{ codeHash: string }>;
    expect(stored.some((row) => codes.some((code) => row.codeHash.includes(code.replace('-', ''))))).toBe(false);
    expect((await agent.get('/api/me/two-factor')).body).toMatchObject({ totpEnabled: true, recoveryCodesLeft: 10 });
    // A second set-up while it is on is refused.
    expect((await agent.post('/api/me/totp').send({})).status).toBe(409);
  });

  it('asks for the code without a session, signs in with it, and refuses the same code again', async () => {
    const { secret } = await enrolled('code@example.org');
    const agent = t.agent();
    const missing = await login(agent, 'code@example.org');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ code: 'second_factor_required', message: expect.any(String) });
    expect(missing.headers['set-cookie']).toBeUndefined();
    expect((await agent.get('/api/me')).status).toBe(401);

    const code = codeNow(secret);
    const ok = await login(agent, 'code@example.org', code);
    expect(ok.status, ok.text).toBe(200);
    expect((await agent.get('/api/me')).body.user.email).toBe('code@example.org');

    const replay = await login(t.agent(), 'code@example.org', code);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('invalid_second_factor');
    // Still refused in the next step (the code's window includes it), then a fresh code works.
    t.clock.advance(30_000);
    expect((await login(t.agent(), 'code@example.org', code)).status).toBe(401);
    expect((await login(t.agent(), 'code@example.org', codeNow(secret))).status).toBe(200);
    // A wrong password with a right code is still a wrong password.
    t.clock.advance(30_000);
    expect((await login(t.agent(), 'code@example.org', codeNow(secret), 'wrong password')).body.code).toBe('invalid_credentials');
  });

  it('accepts each recovery code once', async () => {
    const { recoveryCodes, agent: mine } = await enrolled('recovery@example.org');
    const [first, second] = recoveryCodes;
    expect((await login(t.agent(), 'recovery@example.org', first)).status).toBe(200);
    expect((await login(t.agent(), 'recovery@example.org', first)).body.code).toBe('invalid_second_factor');
    // Typed in capitals and without the dash, it is the same code.
    expect((await login(t.agent(), 'recovery@example.org', second!.replace('-', '').toUpperCase())).status).toBe(200);
    expect((await mine.get('/api/me/two-factor')).body.recoveryCodesLeft).toBe(8);
  });

  it('counts wrong codes toward the sign-in throttle', async () => {
    const { secret } = await enrolled('throttle@example.org');
    // A right password without a code costs nothing.
    for (let i = 0; i < 5; i++) expect((await login(t.agent(), 'throttle@example.org')).status).toBe(401);
    for (let i = 0; i < 4; i++)
      expect((await login(t.agent(), 'throttle@example.org', '999999' === codeNow(secret) ? '999998' : '999999')).status).toBe(401);
    const refused = await login(t.agent(), 'throttle@example.org', codeNow(secret));
    expect(refused.status).toBe(429);
    t.clock.advance(15 * 60_000);
    expect((await login(t.agent(), 'throttle@example.org', codeNow(secret))).status).toBe(200);
  });

  it('turns off with the password and a code', async () => {
    const { agent, secret } = await enrolled('off@example.org');
    expect((await agent.delete('/api/me/totp').send({ password: 'wrong password', code: codeNow(secret) })).status).toBe(400);
    expect((await agent.delete('/api/me/totp').send({ password: TEST_PASSWORD, code: '12' })).status).toBe(400);
    expect((await agent.delete('/api/me/totp').send({ password: TEST_PASSWORD, code: codeNow(secret) })).status).toBe(204);
    expect((await login(t.agent(), 'off@example.org')).status).toBe(200);
    expect((await agent.delete('/api/me/totp').send({ password: TEST_PASSWORD, code: codeNow(secret) })).status).toBe(409);
  });

  it('lets an admin reset a user’s second factor; staff may not', async () => {
    const { user } = await enrolled('lost-phone@example.org');
    const { agent: staff } = await t.signedInAgent('other-staff@example.org');
    expect((await staff.post(`/api/users/${user.id}/reset-2fa`)).status).toBe(403);
    const { agent: admin } = await t.signedInAgent('admin@example.org', 'admin');
    const reset = await admin.post(`/api/users/${user.id}/reset-2fa`);
    expect(reset.body).toEqual({ email: 'lost-phone@example.org', hadSecondFactor: true });
    expect((await login(t.agent(), 'lost-phone@example.org')).status).toBe(200);
    const history = (await admin.get(`/api/users/${user.id}/sign-ins`)).body as Array<{ kind: string; by: string | null }>;
    expect(history.find((entry) => entry.kind === 'two_factor_reset')?.by).toBe('Sam Staff');
  });

  it('sends everyone without a second factor to set one up when an admin requires it', async () => {
    const { agent: staff } = await t.signedInAgent('held@example.org');
    expect((await staff.put('/api/security').send({ requireTwoFactor: true })).status).toBe(403);
    const { agent: plainAdmin } = await t.signedInAgent('boss@example.org', 'admin');
    // An admin without a second factor would hold themselves: refused.
    expect((await plainAdmin.put('/api/security').send({ requireTwoFactor: true })).status).toBe(409);
    const { agent: admin } = await enrolled('boss2@example.org', 'admin');
    expect((await admin.put('/api/security').send({ requireTwoFactor: 'yes' })).status).toBe(400);
    expect((await admin.put('/api/security').send({ requireTwoFactor: true })).body).toEqual({ requireTwoFactor: true });
    expect((await admin.get('/api/security')).body).toEqual({ requireTwoFactor: true });

    // Already signed in: held from now on.
    const held = await staff.get('/api/stats');
    expect(held.status).toBe(403);
    expect(held.body.code).toBe('second_factor_setup_required');
    const page = await staff.get('/contacts');
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/settings/account');
    expect((await staff.get('/settings/account')).status).toBe(200);
    expect((await staff.get('/api/me/two-factor')).body).toMatchObject({ required: true, setupRequired: true });

    // A new sign-in is held too, until the set-up is done.
    const fresh = t.agent();
    expect((await login(fresh, 'held@example.org')).status).toBe(200);
    expect((await fresh.get('/api/stats')).status).toBe(403);
    const { secret } = (await fresh.post('/api/me/totp').send({})).body as { secret: string };
    expect((await fresh.post('/api/me/totp/confirm').send({ code: codeNow(secret) })).status).toBe(200);
    expect((await fresh.get('/api/stats')).status).toBe(200);
    expect((await staff.get('/api/stats')).status).toBe(200);

    await createUser(t.ctx, { email: 'later@example.org', password: TEST_PASSWORD, firstName: 'La', lastName: 'Ter' });
    expect((await admin.put('/api/security').send({ requireTwoFactor: false })).status).toBe(200);
    const later = t.agent();
    expect((await login(later, 'later@example.org')).status).toBe(200);
    expect((await later.get('/api/stats')).status).toBe(200);
  });

  it('records sign-ins, failures and second-factor use in my history', async () => {
    const { agent, secret } = await enrolled('history@example.org');
    await login(t.agent(), 'history@example.org', undefined, 'wrong password');
    await login(t.agent(), 'history@example.org', '000000' === codeNow(secret) ? '111111' : '000000');
    await login(
      t.agent().set('User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36'),
      'history@example.org',
      codeNow(secret),
    );
    const history = (await agent.get('/api/me/sign-ins')).body as Array<Record<string, unknown>>;
    expect(history.slice(0, 6).map((e) => [e.kind, e.succeeded, e.detail])).toEqual([
      ['sign_in', true, 'totp'],
      ['second_factor', true, 'totp'],
      ['second_factor', false, 'wrong_code'],
      ['sign_in', false, 'password'],
      ['two_factor_enabled', true, 'totp'],
      ['sign_in', true, 'password'],
    ]);
    expect(history[0]).toMatchObject({ browser: 'Chrome 131', os: 'Linux', by: null });
    expect(history[0]!.ip).toMatch(/127\.0\.0\.1/);
  });

  it('asks for the code on the sign-in form posted without JavaScript, and signs in with it', async () => {
    const { secret } = await enrolled('nojs@example.org');
    const post = (agent: Agent, fields: Record<string, string>) =>
      agent
        .post('/contacts')
        .type('form')
        .send(new URLSearchParams({ intent: 'sign-in', email: 'nojs@example.org', password: TEST_PASSWORD, ...fields }).toString());
    const asked = await post(t.agent(), {});
    expect(asked.status).toBe(401);
    expect(asked.text).toContain('"askCode":true');
    expect(asked.text).toContain('name="code"');
    const agent = t.agent();
    const signedIn = await post(agent, { code: codeNow(secret) });
    expect(signedIn.status).toBe(303);
    expect((await agent.get('/api/me')).status).toBe(200);
  });
});
