import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

describe('the users list says who has never signed in (shown as "Invited")', () => {
  let t: TestApp;
  let admin: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await t.signedInAgent('admin@example.org', 'admin')).agent;
  });
  afterAll(() => t.close());

  const listed = async (email: string) => {
    const users = (await admin.get('/api/users')).body as Array<{ email: string; isActive: boolean; lastLogin: string | null }>;
    return users.find((user) => user.email === email);
  };

  it('lists an added user without a sign-in until they set their password through the link', async () => {
    const added = await admin.post('/api/users').send({ email: 'invitee@example.org', firstName: 'Ivy', lastName: 'Vee', role: 'staff' });
    expect(added.status, added.text).toBe(201);
    expect(await listed('invitee@example.org')).toMatchObject({ isActive: true, lastLogin: null });

    // Setting the password through the link signs them in: from then on they have signed in.
    const token = new URL(added.body.url as string).pathname.replace('/set-password/', '');
    const set = await t.agent().post(`/api/set-password/${token}`).send({ password: 'a long enough password' });
    expect(set.status, set.text).toBe(200);
    expect((await listed('invitee@example.org'))?.lastLogin).toBe(t.clock.now().toISOString());
  });
});
