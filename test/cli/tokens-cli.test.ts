import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@server/app.js';
import type { ServerContext } from '@server/types.js';
import { LoginThrottle } from '@services/auth/login-throttle.js';
import { systemClock } from '@services/context.js';
import pino from 'pino';
import { buildPacer, type BuiltPacer } from '../helpers/processes.js';
import { testConfig } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

describe('pacer tokens, the built binary', () => {
  let pacer: BuiltPacer;
  let t: TestDatabase;
  const run = (...args: string[]) => pacer.run({ DATABASE_URL: t.url }, args);

  beforeAll(async () => {
    [pacer, t] = await Promise.all([buildPacer('pacer-tokens-cli'), createTestDatabase()]);
  }, 180_000);
  afterAll(async () => {
    pacer?.remove();
    await t?.destroy();
  });

  it('creates a token (--json: id, name, role, token, expiresAt) that signs requests in, lists and revokes it', async () => {
    const created = await run('tokens', 'create', '--name', 'Website forms', '--role', 'staff', '--expires', '90d', '--json');
    expect(created.code, created.err).toBe(0);
    const token = JSON.parse(created.out) as { id: number; name: string; role: string; token: string; expiresAt: string };
    expect(Object.keys(token).sort()).toEqual(['expiresAt', 'id', 'name', 'role', 'token']);
    expect(token).toMatchObject({ name: 'Website forms', role: 'staff' });
    expect(token.token).toMatch(/^pcr_[A-Za-z0-9_-]{43,}$/);
    const days = (Date.parse(token.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThan(90.1);

    // The token works against a server on the same database.
    const ctx: ServerContext = {
      db: t.db,
      log: pino({ level: 'silent' }),
      config: testConfig({ DATABASE_URL: t.url }),
      clock: systemClock,
      throttle: new LoginThrottle(),
      assets: { entry: '/assets/entry.client.js', css: [], preload: [], auth: { entry: '/assets/entry.auth.js', preload: [] } },
    };
    const app = createApp(ctx);
    const write = await supertest(app).post('/api/brands').set('Authorization', `Bearer ${token.token}`).send({ brandName: 'CLI Brand' });
    expect(write.status, write.text).toBe(201);

    const listed = await run('tokens', 'list', '--json');
    expect(listed.code).toBe(0);
    const list = JSON.parse(listed.out) as Array<{ id: number; status: string; lastUsedAt: string | null }>;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: token.id, status: 'active' });
    expect(list[0]!.lastUsedAt).not.toBeNull();
    expect(listed.out).not.toContain(token.token);
    const text = await run('tokens', 'list');
    expect(text.out).toMatch(new RegExp(`^\\s+${token.id}\\s+Website forms\\s+staff\\s+active`));

    const revoked = await run('tokens', 'revoke', String(token.id));
    expect(revoked).toMatchObject({ code: 0, out: `Revoked API token ${token.id}\n` });
    expect((await supertest(app).get('/api/brands').set('Authorization', `Bearer ${token.token}`)).status).toBe(401);
  });

  it('prints the token alone on stdout without --json, and refuses bad input in the one JSON error shape', async () => {
    const plain = await run('tokens', 'create', '--name', 'Plain', '--role', 'viewer');
    expect(plain.code).toBe(0);
    expect(plain.out).toMatch(/^pcr_[A-Za-z0-9_-]+\n$/);
    expect(plain.err).toContain('never expires');

    const badExpiry = await run('tokens', 'create', '--name', 'X', '--role', 'staff', '--expires', '3 months', '--json');
    expect(badExpiry.code).toBe(2);
    expect(JSON.parse(badExpiry.out)).toEqual({ error: { code: 'usage', message: expect.stringContaining('--expires') } });
    const badRole = await run('tokens', 'create', '--name', 'X', '--role', 'owner', '--json');
    expect(badRole.code).toBe(2);
    expect((JSON.parse(badRole.out) as { error: { code: string } }).error.code).toBe('usage');
    const missing = await run('tokens', 'revoke', '9999', '--json');
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.out)).toEqual({ error: { code: 'not_found', message: 'API token not found' } });
  });
});
