import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '@shared/history.js';
import type { ApiToken, CreatedApiToken } from '@shared/schemas/api-tokens.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

describe('API tokens', () => {
  let t: TestApp;
  let admin: Agent;
  beforeAll(async () => {
    t = await createTestApp({ env: { API_TOKEN_RATE_LIMIT: '5' } });
    admin = (await t.signedInAgent('admin@example.org', 'admin')).agent;
    const renamed = await admin.put('/api/account').send({ firstName: 'Ada', lastName: 'Admin' });
    if (renamed.status !== 200) throw new Error(renamed.text);
  });
  afterAll(() => t.close());

  const makeToken = async (body: Record<string, unknown>): Promise<CreatedApiToken> => {
    const res = await admin.post('/api/api-tokens').send(body);
    expect(res.status, res.text).toBe(201);
    return res.body as CreatedApiToken;
  };
  /** A script's request: no cookie, no Origin, only the token. */
  const bare = () => supertest(t.app);
  const withToken = (token: string) => ({
    get: (url: string) => bare().get(url).set('Authorization', `Bearer ${token}`),
    post: (url: string) => bare().post(url).set('Authorization', `Bearer ${token}`),
    put: (url: string) => bare().put(url).set('Authorization', `Bearer ${token}`),
    delete: (url: string) => bare().delete(url).set('Authorization', `Bearer ${token}`),
  });

  it('makes a pcr_ token of 32+ random bytes, shown once and stored only as its hash', async () => {
    const created = await makeToken({ name: 'Website forms', role: 'staff', expiresInDays: 90 });
    expect(created).toMatchObject({ name: 'Website forms', role: 'staff' });
    expect(created.token).toMatch(/^pcr_[A-Za-z0-9_-]{43,}$/);
    expect(Buffer.from(created.token.slice(4), 'base64url').length).toBeGreaterThanOrEqual(32);
    expect(created.expiresAt).toBe(new Date(t.clock.now().getTime() + 90 * 86_400_000).toISOString());
    const row = await t.database.db('api_tokens').where({ id: created.id }).first();
    expect(JSON.stringify(row)).not.toContain(created.token);
    expect(JSON.stringify(row)).not.toContain(created.token.slice(4));
    const list = (await admin.get('/api/api-tokens')).body as ApiToken[];
    expect(list.find((token) => token.id === created.id)).toMatchObject({ status: 'active', createdBy: 'Ada Admin', lastUsedAt: null });
    expect(JSON.stringify(list)).not.toContain(created.token);
  });

  it('a staff token writes without cookie or Origin; history and the request log name the token', async () => {
    const { token, id } = await makeToken({ name: 'Importer', role: 'staff' });
    const created = await withToken(token).post('/api/brands').send({ brandName: 'Token Brand' });
    expect(created.status, created.text).toBe(201);
    const history = await withToken(token).get(`/api/brands/${created.body.id}/history`);
    expect(history.status).toBe(200);
    expect((history.body.items as HistoryEntry[])[0]!.actor).toEqual({ kind: 'token', label: 'API token Importer', runId: null });
    const logged = t.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const line = logged.find((entry) => entry.msg === 'request completed' && (entry.req as { url: string }).url === '/api/brands');
    expect(line?.apiToken).toEqual({ id, name: 'Importer' });
    expect(t.logLines.join('\n')).not.toContain(token);
    // The list shows its last use: when and from where.
    const listed = ((await admin.get('/api/api-tokens')).body as ApiToken[]).find((row) => row.id === id)!;
    expect(listed.lastUsedAt).toBe(t.clock.now().toISOString());
    expect(listed.lastUsedIp).toMatch(/127\.0\.0\.1/);
  });

  it('a cookie write still needs our Origin', async () => {
    const res = await admin.post('/api/brands').set('Origin', 'https://evil.example').send({ brandName: 'X' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('bad_origin');
  });

  it('a viewer token reads but its writes get 403; an admin token may do admin things', async () => {
    const viewer = await makeToken({ name: 'Dashboards', role: 'viewer' });
    expect((await withToken(viewer.token).get('/api/brands')).status).toBe(200);
    const write = await withToken(viewer.token).post('/api/brands').send({ brandName: 'Nope' });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('forbidden');
    expect((await withToken(viewer.token).get('/api/users')).status).toBe(403);
    const adminToken = await makeToken({ name: 'Ops', role: 'admin' });
    expect((await withToken(adminToken.token).get('/api/users')).status).toBe(200);
    expect((await withToken(adminToken.token).get('/api/deleted')).status).toBe(200);
  });

  it('refuses unknown, revoked and expired tokens with 401', async () => {
    const unknown = await withToken('pcr_' + 'A'.repeat(43)).get('/api/brands');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ message: 'Unknown API token', code: 'unauthorized' });
    expect((await withToken('not-a-token').get('/api/brands')).status).toBe(401);

    const revoked = await makeToken({ name: 'Old', role: 'staff' });
    expect((await withToken(revoked.token).get('/api/brands')).status).toBe(200);
    expect((await admin.delete(`/api/api-tokens/${revoked.id}`)).status).toBe(204);
    const afterRevoke = await withToken(revoked.token).get('/api/brands');
    expect(afterRevoke.status).toBe(401);
    expect(afterRevoke.body.message).toBe('This API token was revoked');
    expect(((await admin.get('/api/api-tokens')).body as ApiToken[]).find((row) => row.id === revoked.id)?.status).toBe('revoked');

    const shortLived = await makeToken({ name: 'Day', role: 'staff', expiresInDays: 1 });
    expect((await withToken(shortLived.token).get('/api/brands')).status).toBe(200);
    t.clock.advance(86_400_000);
    const expired = await withToken(shortLived.token).get('/api/brands');
    expect(expired.status).toBe(401);
    expect(expired.body.message).toBe('This API token has expired');
    // The day also ended the admin's session.
    admin = (await t.signedInAgent('admin@example.org', 'admin')).agent;
    expect((await admin.delete('/api/api-tokens/999999')).status).toBe(404);
  });

  it('a token request ignores the session cookie it carries, and pages never take a token', async () => {
    const viewer = await makeToken({ name: 'Viewer two', role: 'viewer' });
    // The admin's cookie and a viewer token: the request is the viewer token's.
    const res = await admin.post('/api/brands').set('Authorization', `Bearer ${viewer.token}`).send({ brandName: 'Mixed' });
    expect(res.status).toBe(403);
    const page = await bare().get('/brands').set('Authorization', `Bearer ${viewer.token}`);
    expect(page.text).not.toContain('Token Brand');
    expect(page.text).toContain('Access is limited to authorized users only.');
  });

  it('refuses tokens on routes about a person and on token management', async () => {
    const { token } = await makeToken({ name: 'Ops two', role: 'admin' });
    for (const [method, url] of [
      ['get', '/api/sessions'],
      ['get', '/api/preferences'],
      ['put', '/api/account'],
      ['get', '/api/api-tokens'],
      ['post', '/api/api-tokens'],
    ] as const) {
      const res = await withToken(token)[method](url).send({});
      expect(res.status, `${method} ${url}`).toBe(403);
    }
  });

  it('creating, listing and revoking need an admin, and bad input is a 400', async () => {
    const { agent: staff } = await t.signedInAgent('staff@example.org', 'staff');
    expect((await staff.get('/api/api-tokens')).status).toBe(403);
    expect((await staff.post('/api/api-tokens').send({ name: 'x', role: 'staff' })).status).toBe(403);
    const bad = await admin.post('/api/api-tokens').send({ name: '', role: 'owner' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
    expect((await admin.post('/api/api-tokens').send({ name: 'x', role: 'staff', expiresInDays: 0 })).status).toBe(400);
  });

  it('limits each token to API_TOKEN_RATE_LIMIT requests a second: 429 with Retry-After', async () => {
    const busy = await makeToken({ name: 'Busy', role: 'viewer' });
    const calm = await makeToken({ name: 'Calm', role: 'viewer' });
    // The fake clock stands still: five requests fit in the second, the sixth does not.
    for (let i = 0; i < 5; i++) expect((await withToken(busy.token).get('/api/stats')).status).toBe(200);
    const refused = await withToken(busy.token).get('/api/stats');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body.code).toBe('too_many_requests');
    // Another token has its own allowance.
    expect((await withToken(calm.token).get('/api/stats')).status).toBe(200);
    t.clock.advance(1000);
    expect((await withToken(busy.token).get('/api/stats')).status).toBe(200);
  });
});
