import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

/** /settings/api-tokens as an admin uses it, posted without JavaScript (the route action runs on the server). */
describe('the API tokens settings page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

  it('is for admins only, and linked from the admin’s settings menu', async () => {
    const { agent: staff } = await t.signedInAgent('staff@example.org', 'staff');
    const refused = await staff.get('/settings/api-tokens');
    expect(refused.status).toBe(403);
    expect((await staff.get('/')).text).not.toContain('href="/settings/api-tokens"');
    const posted = await staff
      .post('/settings/api-tokens')
      .type('form')
      .send(form({ intent: 'create', name: 'Sneaky', role: 'admin' }));
    expect(posted.status).toBe(403);
    expect(await t.database.db('api_tokens').where({ name: 'Sneaky' }).first()).toBeUndefined();

    const { agent: viewer } = await t.signedInAgent('viewer@example.org', 'viewer');
    expect((await viewer.get('/settings/api-tokens')).status).toBe(403);

    const { agent: admin } = await t.signedInAgent('admin@example.org', 'admin');
    const page = await admin.get('/settings/api-tokens');
    expect(page.status).toBe(200);
    expect(page.text).toContain('No API tokens yet');
    expect(page.text).toContain('href="/settings/api-tokens"');
  });

  it('creates a token, shows it once, lists its last use, and revokes it', async () => {
    const { agent: admin } = await t.signedInAgent('admin@example.org', 'admin');
    const created = await admin
      .post('/settings/api-tokens')
      .type('form')
      .send(form({ intent: 'create', name: 'Website forms', role: 'staff', expiresInDays: '30' }));
    expect(created.status).toBe(200);
    const token = /value="(pcr_[A-Za-z0-9_-]+)"/.exec(created.text)?.[1];
    expect(token).toBeDefined();
    expect(created.text).toContain('Copy it now: it is not shown again.');

    const used = await supertest(t.app).get('/api/stats').set('Authorization', `Bearer ${token}`);
    expect(used.status).toBe(200);

    const listed = await admin.get('/settings/api-tokens');
    expect(listed.text).toContain('Website forms');
    expect(listed.text).not.toContain(token!);
    expect(listed.text).toMatch(/from (::ffff:)?127\.0\.0\.1/);
    expect(listed.text).toContain('Active');

    const row = (await t.database.db('api_tokens').where({ name: 'Website forms' }).first()) as { id: number };
    const revoked = await admin
      .post('/settings/api-tokens')
      .type('form')
      .send(form({ intent: 'revoke', id: String(row.id) }));
    expect(revoked.status).toBe(200);
    expect(revoked.text).toContain('Revoked');
    expect((await supertest(t.app).get('/api/stats').set('Authorization', `Bearer ${token}`)).status).toBe(401);
  });

  it('shows why a token could not be made', async () => {
    const { agent: admin } = await t.signedInAgent('admin@example.org', 'admin');
    const refused = await admin
      .post('/settings/api-tokens')
      .type('form')
      .send(form({ intent: 'create', name: '', role: 'staff', expiresInDays: 'never' }));
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Could not create the token');
    expect(refused.text).toContain('Name is required');
  });
});
