import bcrypt from 'bcrypt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser } from '@services/users/service.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app.js';

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe('sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function signIn(email: string, userAgent: string, password = TEST_PASSWORD) {
    const agent = t.agent().set('User-Agent', userAgent);
    const res = await agent.post('/api/login').send({ email, password });
    expect(res.status, res.text).toBe(200);
    return agent;
  }
  const signedIn = async (agent: ReturnType<TestApp['agent']>) => (await agent.get('/api/me')).status === 200;

  it('lists my sessions with browser, system, IP and times, and logout ends only this one', async () => {
    await createUser(t.ctx, { email: 'two@example.org', password: TEST_PASSWORD, firstName: 'Two', lastName: 'Devices' });
    const phone = await signIn('two@example.org', PHONE);
    t.clock.advance(5_000);
    const desktop = await signIn('two@example.org', DESKTOP);

    const listed = await desktop.get('/api/sessions');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({ browser: 'Chrome 131', os: 'Linux', current: true, signedInAt: '2026-11-21T09:00:05.000Z' }),
      expect.objectContaining({ browser: 'Safari 17', os: 'iOS 17.1', current: false, signedInAt: '2026-11-21T09:00:00.000Z' }),
    ]);
    expect(listed.body[0].ip).toMatch(/127\.0\.0\.1/);

    expect((await phone.post('/api/logout')).status).toBe(204);
    expect(await signedIn(phone)).toBe(false);
    expect(await signedIn(desktop)).toBe(true);
    expect((await desktop.get('/api/sessions')).body).toHaveLength(1);
  });

  it('signs out one other session, refuses another person’s, and signs out all others', async () => {
    await createUser(t.ctx, { email: 'three@example.org', password: TEST_PASSWORD, firstName: 'Three', lastName: 'Devices' });
    const here = await signIn('three@example.org', DESKTOP);
    const phone = await signIn('three@example.org', PHONE);
    const tablet = await signIn('three@example.org', PHONE);
    const phoneId = ((await phone.get('/api/sessions')).body as Array<{ id: string; current: boolean }>).find((s) => s.current)!.id;

    const stranger = await signIn('two@example.org', DESKTOP);
    expect((await stranger.delete(`/api/sessions/${phoneId}`)).status).toBe(404);
    expect(await signedIn(phone)).toBe(true);
    expect((await here.delete('/api/sessions/not-a-session')).body).toEqual({ code: 'not_found', message: 'Session not found' });

    expect((await here.delete(`/api/sessions/${phoneId}`)).status).toBe(204);
    expect(await signedIn(phone)).toBe(false);
    expect(await signedIn(tablet)).toBe(true);

    expect((await here.post('/api/sessions/sign-out-others')).body).toEqual({ ended: 1 });
    expect(await signedIn(tablet)).toBe(false);
    expect(await signedIn(here)).toBe(true);
    expect(await signedIn(stranger)).toBe(true);
  });

  it('changes my password only with the current one, ending every other session of mine', async () => {
    await createUser(t.ctx, { email: 'pw@example.org', password: TEST_PASSWORD, firstName: 'Pat', lastName: 'Word' });
    const here = await signIn('pw@example.org', DESKTOP);
    const other = await signIn('pw@example.org', PHONE);

    const wrong = await here.post('/api/account/password').send({ currentPassword: 'not it', newPassword: 'a new long password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.issues).toEqual([{ path: 'currentPassword', message: 'The current password is not right' }]);
    const short = await here.post('/api/account/password').send({ currentPassword: TEST_PASSWORD, newPassword: 'short' });
    expect(short.body.message).toBe('Password must be at least 8 characters');
    expect(await signedIn(other)).toBe(true);

    expect(
      (await here.post('/api/account/password').send({ currentPassword: TEST_PASSWORD, newPassword: 'a new long password' })).status,
    ).toBe(204);
    expect(await signedIn(other)).toBe(false);
    expect(await signedIn(here)).toBe(true);
    expect((await t.agent().post('/api/login').send({ email: 'pw@example.org', password: TEST_PASSWORD })).status).toBe(401);
    await signIn('pw@example.org', PHONE, 'a new long password');

    const renamed = await here.put('/api/account').send({ firstName: ' Patricia ', lastName: 'Word' });
    expect(renamed.body.user).toMatchObject({ firstName: 'Patricia', lastName: 'Word' });
    expect((await here.put('/api/account').send({ firstName: '', lastName: 'Word' })).body.message).toBe('First name is required');
  });

  it('throttles wrong current passwords per account as sign-in does, counting each before bcrypt checks it', async () => {
    await createUser(t.ctx, { email: 'guess@example.org', password: TEST_PASSWORD, firstName: 'Gus', lastName: 'Ess' });
    const stolen = await signIn('guess@example.org', DESKTOP);
    const own = await signIn('guess@example.org', PHONE);
    const compare = vi.spyOn(bcrypt, 'compare');
    let answers;
    try {
      answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          stolen.post('/api/account/password').send({ currentPassword: `guess ${i}`, newPassword: 'a new long password' }),
        ),
      );
      // Ten a window, as for sign-in: ten guesses reach bcrypt, the rest are refused before it.
      expect(compare).toHaveBeenCalledTimes(10);
    } finally {
      compare.mockRestore();
    }
    expect(answers.filter((res) => res.status === 400)).toHaveLength(10);
    const refused = answers.filter((res) => res.status === 429);
    expect(refused).toHaveLength(10);
    expect(refused[0]!.body.message).toBe('Too many wrong current passwords. Try again later.');
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);
    // Per account: the right password from another session waits too, and works once the window has passed.
    const right = { currentPassword: TEST_PASSWORD, newPassword: 'a new long password' };
    expect((await own.post('/api/account/password').send(right)).status).toBe(429);
    t.clock.advance(15 * 60_000);
    const fresh = await signIn('guess@example.org', PHONE);
    expect((await fresh.post('/api/account/password').send(right)).status).toBe(204);
  });

  it('checks a request with one query, and touches lastSeenAt at most once a minute', async () => {
    await createUser(t.ctx, { email: 'seen@example.org', password: TEST_PASSWORD, firstName: 'Seen', lastName: 'Often' });
    const agent = await signIn('seen@example.org', DESKTOP);
    const lastSeen = async () => ((await agent.get('/api/sessions')).body as Array<{ lastSeenAt: string }>)[0]!.lastSeenAt;
    const queries: string[] = [];
    const record = (query: { sql: string }) => queries.push(query.sql);
    const queriesOf = async (run: () => Promise<unknown>) => {
      queries.length = 0;
      t.database.db.on('query', record);
      try {
        await run();
      } finally {
        t.database.db.off('query', record);
      }
      return [...queries];
    };

    const signedInAt = t.clock.now().toISOString();
    expect(await lastSeen()).toBe(signedInAt);
    t.clock.advance(59_000);
    const quiet = await queriesOf(() => agent.get('/api/me'));
    expect(quiet).toHaveLength(1);
    expect(quiet[0]).toMatch(/from [`"]sessions[`"] (as )?[`"]?s[`"]? (inner )?join [`"]users[`"]/i);
    expect(await lastSeen()).toBe(signedInAt);

    t.clock.advance(2_000);
    const touched = await queriesOf(() => agent.get('/api/me'));
    expect(touched).toHaveLength(2);
    expect(touched[1]).toMatch(/^update [`"]sessions[`"] set [`"]lastSeenAt[`"]/);
    expect(await lastSeen()).toBe(t.clock.now().toISOString());
  });
});
