import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTimestamp } from '@db/codecs.js';
import { setRequireTwoFactor } from '@services/auth/security-settings.js';
import { cliActor } from '@services/context.js';
import { createUser } from '@services/users/service.js';
import { SoftAuthenticator } from '../fakes/soft-authenticator.js';
import { createTestApp, TEST_ORIGIN, TEST_PASSWORD, type TestApp } from '../helpers/app.js';

type Agent = ReturnType<TestApp['agent']>;

describe('passkeys (WebAuthn) through the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { APP_URL: TEST_ORIGIN }, throttle: { perAccountAndIp: 5, perIp: 100, windowMs: 15 * 60_000 } });
  });
  afterAll(() => t.close());

  /** Registers a passkey of the agent's user through the two API calls a browser makes. */
  async function addPasskey(agent: Agent, name: string, authenticator = new SoftAuthenticator(TEST_ORIGIN)) {
    const options = await agent.post('/api/me/passkeys/options').send({});
    expect(options.status, options.text).toBe(200);
    const added = await agent.post('/api/me/passkeys').send({ name, response: authenticator.register(options.body) });
    expect(added.status, added.text).toBe(201);
    return { authenticator, passkey: added.body as { id: number; name: string } };
  }

  const signInOptions = async (agent: Agent) => {
    const res = await agent.post('/api/login/passkey/options').send({});
    expect(res.status, res.text).toBe(200);
    return res.body as { challenge: string; rpId: string; userVerification: string; allowCredentials?: unknown[] };
  };

  const events = async (userId: number) =>
    (await t.database.db('sign_in_events').where({ userId }).orderBy('id')).map(
      (e: { kind: string; succeeded: unknown; detail: string }) => [e.kind, Boolean(Number(e.succeeded)), e.detail],
    );

  it('asks for a discoverable, verified passkey of our site and excludes the ones the user has', async () => {
    const { agent } = await t.signedInAgent('options@example.org');
    const first = await agent.post('/api/me/passkeys/options').send({});
    expect(first.body.rp).toEqual({ name: 'Pacer CRM', id: '127.0.0.1' });
    expect(first.body.user.name).toBe('options@example.org');
    expect(first.body.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    expect(first.body.excludeCredentials).toEqual([]);
    const { authenticator } = await addPasskey(agent, 'Laptop');
    const second = await agent.post('/api/me/passkeys/options').send({});
    expect(second.body.excludeCredentials).toEqual([{ id: authenticator.id, type: 'public-key', transports: ['internal'] }]);
    const signIn = await signInOptions(t.agent());
    expect(signIn.rpId).toBe('127.0.0.1');
    expect(signIn.userVerification).toBe('required');
    // No email asked and no credentials listed: nothing tells which accounts have a passkey.
    expect(signIn.allowCredentials ?? []).toEqual([]);
  });

  it('registers several named passkeys, renames and removes them, and writes the history', async () => {
    const { agent, user } = await t.signedInAgent('several@example.org');
    const { passkey: laptop } = await addPasskey(agent, '  Work laptop ');
    const { passkey: phone } = await addPasskey(agent, 'Phone');
    expect(laptop.name).toBe('Work laptop');
    const listed = await agent.get('/api/me/passkeys');
    expect(listed.body.map((p: { name: string }) => p.name)).toEqual(['Work laptop', 'Phone']);
    expect(listed.body[0]).toEqual({ id: laptop.id, name: 'Work laptop', createdAt: expect.any(String), lastUsedAt: null });

    const renamed = await agent.patch(`/api/me/passkeys/${phone.id}`).send({ name: 'Old phone' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Old phone');
    const blank = await agent.patch(`/api/me/passkeys/${phone.id}`).send({ name: '  ' });
    expect(blank.status).toBe(400);
    expect(blank.body.issues[0].path).toBe('name');

    // Someone else's passkey is not found, nor is a made-up id.
    const { agent: other } = await t.signedInAgent('other@example.org');
    expect((await other.patch(`/api/me/passkeys/${phone.id}`).send({ name: 'Mine' })).status).toBe(404);
    expect((await other.delete(`/api/me/passkeys/${phone.id}`)).status).toBe(404);
    expect((await other.delete('/api/me/passkeys/abc')).status).toBe(404);

    expect((await agent.delete(`/api/me/passkeys/${phone.id}`)).status).toBe(204);
    expect((await agent.get('/api/me/passkeys')).body.map((p: { name: string }) => p.name)).toEqual(['Work laptop']);
    expect((await events(user.id)).filter(([kind]) => kind !== 'sign_in')).toEqual([
      ['passkey_added', true, 'Work laptop'],
      ['passkey_added', true, 'Phone'],
      ['passkey_removed', true, 'Old phone'],
    ]);
  });

  it('refuses a registration whose challenge was used, another origin, or bad input, with 400s', async () => {
    const { agent } = await t.signedInAgent('refused@example.org');
    const authenticator = new SoftAuthenticator(TEST_ORIGIN);
    const options = (await agent.post('/api/me/passkeys/options').send({})).body;
    const response = authenticator.register(options);
    expect((await agent.post('/api/me/passkeys').send({ name: 'Key', response })).status).toBe(201);
    const again = await agent.post('/api/me/passkeys').send({ name: 'Key', response });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('passkey_refused');

    const phishing = new SoftAuthenticator('https://pacer.example.com', '127.0.0.1');
    const other = (await agent.post('/api/me/passkeys/options').send({})).body;
    const wrongOrigin = await agent.post('/api/me/passkeys').send({ name: 'Key', response: phishing.register(other) });
    expect(wrongOrigin.status).toBe(400);
    expect(wrongOrigin.body.code).toBe('passkey_refused');

    // Another user's challenge is not this user's.
    const { agent: someoneElse } = await t.signedInAgent('someone@example.org');
    const theirs = (await someoneElse.post('/api/me/passkeys/options').send({})).body;
    expect(
      (await agent.post('/api/me/passkeys').send({ name: 'Key', response: new SoftAuthenticator(TEST_ORIGIN).register(theirs) })).status,
    ).toBe(400);

    const garbage = await agent.post('/api/me/passkeys').send({ name: 'Key', response: { id: 'x' } });
    expect(garbage.status).toBe(400);
    expect((await agent.get('/api/me/passkeys')).body).toHaveLength(1);
  });

  it('signs in with a passkey alone: one use per challenge, no going back on the counter, history written', async () => {
    const { agent: owner, user } = await t.signedInAgent('alone@example.org');
    const { authenticator } = await addPasskey(owner, 'Laptop');

    const agent = t.agent();
    const assertion = authenticator.assert(await signInOptions(agent));
    const signedIn = await agent.post('/api/login/passkey').send({ response: assertion });
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body.user.email).toBe('alone@example.org');
    expect((await agent.get('/api/me')).body.user.id).toBe(user.id);
    expect((await owner.get('/api/me/passkeys')).body[0].lastUsedAt).not.toBeNull();

    // The same assertion again: its challenge is spent.
    const replay = await t.agent().post('/api/login/passkey').send({ response: assertion });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('invalid_passkey');

    // A cloned authenticator shows a counter that went back.
    const cloned = authenticator.assert(await signInOptions(t.agent()), { counter: 1 });
    expect((await t.agent().post('/api/login/passkey').send({ response: cloned })).status).toBe(401);

    // No user verification: refused.
    const unverified = authenticator.assert(await signInOptions(t.agent()), { userVerified: false });
    expect((await t.agent().post('/api/login/passkey').send({ response: unverified })).status).toBe(401);

    // An expired challenge.
    const options = await signInOptions(t.agent());
    t.clock.advance(6 * 60_000);
    expect(
      (
        await t
          .agent()
          .post('/api/login/passkey')
          .send({ response: authenticator.assert(options) })
      ).status,
    ).toBe(401);

    // A good one still works after all that.
    expect(
      (
        await t
          .agent()
          .post('/api/login/passkey')
          .send({ response: authenticator.assert(await signInOptions(t.agent())) })
      ).status,
    ).toBe(200);
    const signIns = (await events(user.id)).filter(([kind]) => kind === 'sign_in');
    expect(signIns).toEqual([
      ['sign_in', true, 'password'],
      ['sign_in', true, 'passkey'],
      ['sign_in', false, 'passkey'],
      ['sign_in', false, 'passkey'],
      ['sign_in', false, 'passkey'],
      ['sign_in', false, 'passkey'],
      ['sign_in', true, 'passkey'],
    ]);
  });

  it('refuses an unknown passkey and a deactivated account, and counts failures in the throttle', async () => {
    const stranger = new SoftAuthenticator(TEST_ORIGIN);
    const unknown = await t
      .agent()
      .post('/api/login/passkey')
      .send({ response: stranger.assert(await signInOptions(t.agent())) });
    expect(unknown.status).toBe(401);
    expect(await t.database.db('sign_in_events').where({ detail: 'unknown_passkey', succeeded: 0 }).count({ n: '*' })).toEqual([{ n: 1 }]);

    const { agent: owner } = await t.signedInAgent('throttled@example.org');
    const { authenticator } = await addPasskey(owner, 'Key');
    const stale = authenticator.assert(await signInOptions(t.agent()));
    // Five failures (the limit in this app) from one address for this account, then even a good one waits.
    for (let i = 0; i < 5; i++) {
      const failed = await t
        .agent()
        .post('/api/login/passkey')
        .send({ response: authenticator.assert(await signInOptions(t.agent()), { userVerified: false }) });
      expect(failed.status).toBe(401);
    }
    const limited = await t.agent().post('/api/login/passkey').send({ response: stale });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    t.clock.advance(16 * 60_000);

    await createUser(t.ctx, { email: 'gone@example.org', password: TEST_PASSWORD, firstName: 'Gone', lastName: 'User', role: 'staff' });
    const { agent: gone } = await t.signedInAgent('gone@example.org');
    const { authenticator: goneKey } = await addPasskey(gone, 'Key');
    await t.database.db('users').where({ email: 'gone@example.org' }).update({ isActive: 0 });
    expect(
      (
        await t
          .agent()
          .post('/api/login/passkey')
          .send({ response: goneKey.assert(await signInOptions(t.agent())) })
      ).status,
    ).toBe(401);
  });

  it('stands in for the authenticator code after the password, only with the account’s own passkey', async () => {
    const { agent: owner, user } = await t.signedInAgent('second@example.org');
    const { authenticator } = await addPasskey(owner, 'Key');
    const { agent: other } = await t.signedInAgent('not-mine@example.org');
    const { authenticator: notMine } = await addPasskey(other, 'Key');

    const agent = t.agent();
    const asked = await agent.post('/api/login').send({ email: 'second@example.org', password: TEST_PASSWORD });
    expect(asked.status).toBe(401);
    expect(asked.body.code).toBe('second_factor_required');

    const wrong = await agent
      .post('/api/login')
      .send({ email: 'second@example.org', password: TEST_PASSWORD, passkey: notMine.assert(await signInOptions(agent)) });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('invalid_second_factor');

    const right = await agent
      .post('/api/login')
      .send({ email: 'second@example.org', password: TEST_PASSWORD, passkey: authenticator.assert(await signInOptions(agent)) });
    expect(right.status, right.text).toBe(200);
    expect((await events(user.id)).slice(-3)).toEqual([
      ['second_factor', false, 'passkey'],
      ['second_factor', true, 'passkey'],
      ['sign_in', true, 'passkey'],
    ]);
  });

  it('frees a session held for set-up once a passkey is added, and holds it again when the last one goes', async () => {
    const { agent: admin } = await t.signedInAgent('admin-with-key@example.org', 'admin');
    await addPasskey(admin, 'Admin key');
    await setRequireTwoFactor(t.ctx, cliActor(), { requireTwoFactor: true });
    try {
      const { agent } = await t.signedInAgent('held-staff@example.org');
      expect((await agent.get('/api/contacts')).status).toBe(403);
      const { passkey } = await addPasskey(agent, 'Key');
      expect((await agent.get('/api/contacts')).status).toBe(200);
      expect((await agent.delete(`/api/me/passkeys/${passkey.id}`)).status).toBe(204);
      expect((await agent.get('/api/contacts')).status).toBe(403);
    } finally {
      await setRequireTwoFactor(t.ctx, cliActor(), { requireTwoFactor: false });
    }
  });

  it('turning the authenticator app off keeps the passkeys', async () => {
    const { agent, user } = await t.signedInAgent('both@example.org');
    await addPasskey(agent, 'Key');
    await t.database.db('user_second_factors').insert({
      userId: user.id,
      kind: 'totp',
      secret: 'JBSWY3DPEHPK3PXP',
      createdAt: encodeTimestamp(t.clock.now()),
      confirmedAt: encodeTimestamp(t.clock.now()),
    });
    // Turning TOTP off takes a code: a recovery code made here by hand.
    await t.database
      .db('user_recovery_codes')
      .insert({ userId: user.id, codeHash: createHash('sha256').update('abcde23456').digest('hex') });
    const off = await agent.delete('/api/me/totp').send({ password: TEST_PASSWORD, code: 'abcde-23456' });
    expect(off.status, off.text).toBe(204);
    expect((await agent.get('/api/me/passkeys')).body).toHaveLength(1);
    expect((await agent.get('/api/me/two-factor')).body.totpEnabled).toBe(false);
  });

  it('answers 409 when the site address is not set, and the session tells the sign-in page', async () => {
    expect((await t.agent().get('/api/session')).body.env.passkeys).toBe(true);
    const appUrl = t.config.appUrl;
    t.config.appUrl = undefined;
    try {
      expect((await t.agent().get('/api/session')).body.env.passkeys).toBe(false);
      const res = await t.agent().post('/api/login/passkey/options').send({});
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('passkeys_unavailable');
    } finally {
      t.config.appUrl = appUrl;
    }
  });
});
