import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProduct } from '../helpers/processes.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

interface Run {
  code: number | null;
  out: string;
  err: string;
}

/** The real `pacer` of a production build, run from a folder of its own with only these settings. */
function pacer(bin: string, cwd: string, env: Record<string, string>, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const base: Record<string, string> = { PATH: process.env.PATH ?? '', NODE_ENV: 'test', BCRYPT_COST: '4' };
    const child = execFile(process.execPath, [bin, ...args], { cwd, env: { ...base, ...env } }, (error, out, err) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: child.exitCode, out, err });
    });
    child.stdin!.end();
  });
}

describe('pacer users reset-2fa and require-2fa (the built binary)', () => {
  let product: { root: string; remove(): void };
  let bin: string;
  let t: TestDatabase;
  let elsewhere: string;
  const run = (...args: string[]) => pacer(bin, elsewhere, { DATABASE_URL: t.url }, args);

  beforeAll(async () => {
    [product, t] = await Promise.all([buildProduct('pacer-two-factor-cli'), createTestDatabase()]);
    cpSync('bin', path.join(product.root, 'bin'), { recursive: true });
    bin = path.join(product.root, 'bin', 'pacer.js');
    elsewhere = mkdtempSync(path.join(tmpdir(), 'pacer-2fa-'));
  }, 180_000);
  afterAll(async () => {
    product?.remove();
    if (elsewhere) rmSync(elsewhere, { recursive: true, force: true });
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
