import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { startMailCatcher, type MailCatcher } from '../helpers/smtp.js';
import { waitUntil } from '../helpers/wait.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

const tokenOf = (url: string) => new URL(url).pathname.replace('/set-password/', '');

describe('users in the browser: the users API and one-time links', () => {
  let t: TestApp;
  let admin: Agent;
  let adminId: number;
  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.signedInAgent('admin@example.org', 'admin');
    admin = signedIn.agent;
    adminId = signedIn.user.id;
  });
  afterAll(() => t.close());

  it('adds a user with a one-time link that sets the password once and signs them in', async () => {
    const added = await admin
      .post('/api/users')
      .send({ email: 'New.Staff@example.org', firstName: 'Nia', lastName: 'Staff', role: 'staff' });
    expect(added.status, added.text).toBe(201);
    expect(added.body).toMatchObject({
      user: { email: 'new.staff@example.org', role: 'staff', isActive: true, lastLogin: null },
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1\/set-password\/[A-Za-z0-9_-]{43}$/),
      expiresAt: new Date(t.clock.now().getTime() + 72 * 3_600_000).toISOString(),
      emailed: false,
    });
    const token = tokenOf(added.body.url);
    // Only the hash is stored.
    const stored = (await t.database.db('set_password_links').select('tokenHash')) as Array<{ tokenHash: string }>;
    expect(stored.map((row) => row.tokenHash)).not.toContain(token);
    // No password signs in before the link is used.
    expect((await t.agent().post('/api/login').send({ email: 'new.staff@example.org', password: '' })).status).toBe(400);

    const visitor = t.agent();
    expect((await visitor.get(`/api/set-password/${token}`)).body).toEqual({ email: 'new.staff@example.org', firstName: 'Nia' });
    expect((await visitor.post(`/api/set-password/${token}`).send({ password: 'short' })).body.message).toBe(
      'Password must be at least 8 characters',
    );
    const set = await visitor.post(`/api/set-password/${token}`).send({ password: 'my own long password' });
    expect(set.status, set.text).toBe(200);
    expect((await visitor.get('/api/me')).body.user).toMatchObject({ email: 'new.staff@example.org', role: 'staff' });

    const reused = await t.agent().post(`/api/set-password/${token}`).send({ password: 'someone elses password' });
    expect(reused.status).toBe(410);
    expect(reused.body.message).toBe('This link has expired or has already been used. Ask an admin for a new one.');
    expect((await t.agent().post('/api/login').send({ email: 'new.staff@example.org', password: 'my own long password' })).status).toBe(
      200,
    );
  });

  it('expires a link after 72 hours, and a newer link replaces the older one', async () => {
    const added = await admin.post('/api/users').send({ email: 'late@example.org', firstName: 'Lou', lastName: 'Late', role: 'viewer' });
    const first = tokenOf(added.body.url);
    const second = await admin.post(`/api/users/${added.body.user.id}/reset-link`).send({});
    expect(second.status).toBe(200);
    expect((await t.agent().get(`/api/set-password/${first}`)).status).toBe(410);
    const secondToken = tokenOf(second.body.url);

    t.clock.advance(72 * 3_600_000 - 1);
    expect((await t.agent().get(`/api/set-password/${secondToken}`)).status).toBe(200);
    t.clock.advance(1);
    const expired = await t.agent().post(`/api/set-password/${secondToken}`).send({ password: 'too late a password' });
    expect(expired.status).toBe(410);
    // 72 hours is past the admin's own session limits too: sign in again for the tests below.
    admin = (await t.signedInAgent('admin@example.org')).agent;
  });

  it("ends a user's links when they are deactivated, so reactivating does not bring an old link back", async () => {
    const added = await admin.post('/api/users').send({ email: 'paused@example.org', firstName: 'Pat', lastName: 'Paused', role: 'staff' });
    expect(added.status, added.text).toBe(201);
    const token = tokenOf(added.body.url);
    expect((await admin.put(`/api/users/${added.body.user.id}`).send({ isActive: false })).status).toBe(200);
    expect((await admin.put(`/api/users/${added.body.user.id}`).send({ isActive: true })).status).toBe(200);
    // Well within the link's 72 hours, yet it is gone.
    expect((await t.agent().get(`/api/set-password/${token}`)).status).toBe(410);
    const used = await t.agent().post(`/api/set-password/${token}`).send({ password: 'a password set too late' });
    expect(used.status).toBe(410);
    // A fresh link made after reactivation works.
    const fresh = await admin.post(`/api/users/${added.body.user.id}/reset-link`).send({});
    expect((await t.agent().get(`/api/set-password/${tokenOf(fresh.body.url)}`)).status).toBe(200);
  });

  it('lists users for admins only, and refuses a taken email', async () => {
    const listed = await admin.get('/api/users');
    expect(listed.status).toBe(200);
    expect(listed.body.map((u: { email: string }) => u.email)).toEqual(expect.arrayContaining(['admin@example.org', 'late@example.org']));
    const { agent: staff } = await t.signedInAgent('plain.staff@example.org', 'staff');
    expect((await staff.get('/api/users')).status).toBe(403);
    const taken = await admin.post('/api/users').send({ email: 'LATE@example.org', firstName: 'X', lastName: 'Y', role: 'staff' });
    expect(taken).toMatchObject({ status: 409, body: { message: 'A user with the email late@example.org already exists' } });
    const badRole = await admin.post('/api/users').send({ email: 'r@example.org', firstName: 'X', lastName: 'Y', role: 'owner' });
    expect(badRole.status).toBe(400);
    expect(badRole.body.message).toBe('Role must be one of: admin, staff, viewer');
  });

  it('changes roles and deactivates (ending their sessions), and keeps the last active admin', async () => {
    const { agent: someone, user } = await t.signedInAgent('promote@example.org', 'staff');
    const promoted = await admin.put(`/api/users/${user.id}`).send({ role: 'admin' });
    expect(promoted.body.user).toMatchObject({ role: 'admin' });
    expect((await someone.get('/api/me')).status).toBe(401);

    const { agent: again } = await t.signedInAgent('promote@example.org');
    expect((await again.get('/api/users')).status).toBe(200);
    expect((await admin.put(`/api/users/${user.id}`).send({ isActive: false })).body.user).toMatchObject({ isActive: false });
    expect((await again.get('/api/me')).status).toBe(401);

    const lastAdmin = await admin.put(`/api/users/${adminId}`).send({ role: 'staff' });
    expect(lastAdmin.status).toBe(409);
    expect(lastAdmin.body.message).toBe(
      'This is the last active admin: make another user an admin first, so someone can still manage users',
    );
    expect((await admin.put(`/api/users/${adminId}`).send({ isActive: false })).status).toBe(409);
    expect((await admin.put(`/api/users/${adminId}`).send({ firstName: 'Ada' })).body.user.firstName).toBe('Ada');
    expect((await admin.put('/api/users/999999').send({ role: 'staff' })).status).toBe(404);
    expect((await admin.put(`/api/users/${user.id}`).send({ role: 'boss' })).status).toBe(400);
  });
});

describe('set-password links by email', () => {
  let t: TestApp;
  let mail: MailCatcher;

  beforeAll(async () => {
    mail = await startMailCatcher();
    t = await createTestApp({ env: { SMTP_URL: mail.url, MAIL_FROM: 'Pacer CRM <crm@example.org>' } });
  });
  afterAll(async () => {
    await t.close();
    await mail?.close();
  });

  it('emails the link to the new user through the SMTP server, and still answers it to the admin', async () => {
    const { agent: admin } = await t.signedInAgent('mailing.admin@example.org', 'admin');
    const added = await admin.post('/api/users').send({ email: 'mailed@example.org', firstName: 'Mai', lastName: 'Led', role: 'staff' });
    expect(added.status, added.text).toBe(201);
    expect(added.body.emailed).toBe(true);
    await waitUntil(() => mail.received.length === 1, 'the message to reach the SMTP server');
    const [message] = mail.received;
    expect(message!.to).toEqual(['mailed@example.org']);
    expect(message!.from).toBe('crm@example.org');
    expect(message!.body).toContain('Subject: Set your Pacer CRM password');
    expect(message!.body.replace(/=\r?\n/g, '')).toContain(added.body.url);
  });
});
