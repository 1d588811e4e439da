import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPacer, type BuiltPacer } from '../helpers/processes.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

describe('pacer users reset-2fa and require-2fa (the built binary)', () => {
  let pacer: BuiltPacer;
  let t: TestDatabase;
  const run = (...args: string[]) => pacer.run({ DATABASE_URL: t.url }, args);

  beforeAll(async () => {
    [pacer, t] = await Promise.all([buildPacer('pacer-two-factor-cli'), createTestDatabase()]);
  }, 180_000);
  afterAll(async () => {
    pacer?.remove();
    await t?.destroy();
  });

  it('removes a user’s second factors and recovery codes, and records who did it', async () => {
    expect((await run('users', 'create', '--email', 'phone@example.org', '--password', 'long enough pw', '--role', 'staff')).code).toBe(0);
    const user = (await t.db('users').where({ email: 'phone@example.org' }).first('id')) as { id: number };
    await t.db('user_second_factors').insert({
      userId: user.id,
      kind: 'totp',
      secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
      createdAt: t.db.fn.now(),
      confirmedAt: t.db.fn.now(),
    });
    await t.db('user_recovery_codes').insert({ userId: user.id, codeHash: 'a'.repeat(64) });

    const reset = await run('users', 'reset-2fa', 'Phone@Example.org');
    expect(reset.err).toBe('');
    expect(reset).toMatchObject({ code: 0 });
    expect(reset.out).toBe('Two-factor sign-in reset for phone@example.org: they sign in with their password and set it up again.\n');
    expect(await t.db('user_second_factors').where({ userId: user.id })).toHaveLength(0);
    expect(await t.db('user_recovery_codes').where({ userId: user.id })).toHaveLength(0);
    const event = (await t.db('sign_in_events').where({ userId: user.id, kind: 'two_factor_reset' }).first()) as Record<string, unknown>;
    expect(event).toMatchObject({ detail: 'cli', ip: 'cli', actorId: null });

    expect((await run('users', 'reset-2fa', 'phone@example.org')).out).toBe('phone@example.org had no second factor; nothing to reset.\n');
    const unknown = await run('users', 'reset-2fa', 'nobody@example.org');
    expect(unknown.code).not.toBe(0);
    expect(unknown.err).toContain('User not found');
  });

  it('turns the requirement on and off, and refuses another word', async () => {
    expect((await run('users', 'require-2fa', 'on')).out).toContain('now required');
    expect(await t.db('app_settings').where({ name: 'requireTwoFactor' }).first('value')).toEqual({ value: 'true' });
    expect((await run('users', 'require-2fa', 'off')).code).toBe(0);
    expect(await t.db('app_settings').where({ name: 'requireTwoFactor' }).first('value')).toEqual({ value: 'false' });
    const bad = await run('users', 'require-2fa', 'maybe');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('Allowed choices are on, off');
  });
});
