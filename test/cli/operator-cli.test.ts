import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPacer, type BuiltPacer, type PacerRun } from '../helpers/processes.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

/** Exactly one JSON document on stdout (JSON.parse refuses two). */
const jsonOf = (run: PacerRun) => JSON.parse(run.out) as Record<string, unknown> & { error?: { code: string; message: string } };

// Each test starts the built binary several times (a node start each): on a loaded machine that is well past 30 s.
describe('pacer, the built binary, run by an operator', { timeout: 120_000 }, () => {
  let pacer: BuiltPacer;
  let t: TestDatabase;
  const run = (args: string[], options: { env?: Record<string, string>; input?: string } = {}) =>
    pacer.run({ DATABASE_URL: t.url, ...options.env }, args, options.input);

  beforeAll(async () => {
    [pacer, t] = await Promise.all([buildPacer('pacer-operator-cli'), createTestDatabase({ migrate: false })]);
  }, 180_000);
  afterAll(async () => {
    pacer?.remove();
    await t?.destroy();
  });

  it('prints the help and exits 2 when run bare, and its version with --version', async () => {
    const bare = await run([]);
    expect(bare.code).toBe(2);
    expect(bare.err).toContain('Usage: pacer [options] [command]');
    const version = await run(['--version']);
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(version).toMatchObject({ code: 0, out: `${pkg.version}\n` });
  });

  it('on a database never migrated, says to run pacer db migrate instead of failing on a missing table', async () => {
    const listed = await run(['users', 'list']);
    expect(listed.code).toBe(1);
    expect(listed.err).toMatch(
      /^The database is not up to date \(\d+ migration\(s\) pending\): run `pacer db migrate` first; `pacer db status` lists them\.\n$/,
    );
    expect(listed.err).not.toContain('no such table');
    const json = await run(['users', 'list', '--json']);
    expect(json.code).toBe(1);
    expect(jsonOf(json).error).toMatchObject({ code: 'not_migrated', message: expect.stringContaining('pacer db migrate') });
    const status = await run(['db', 'status', '--json']);
    expect(status.code).toBe(0);
    const pending = jsonOf(status) as unknown as { applied: string[]; pending: string[] };
    expect(pending.applied).toEqual([]);
    expect(pending.pending.length).toBeGreaterThan(10);
    expect((await run(['db', 'migrate'])).code).toBe(0);
  });

  it('rolls back one migration only when confirmed, naming it and the tables it drops', async () => {
    const before = (jsonOf(await run(['db', 'status', '--json'])) as unknown as { applied: string[] }).applied;
    const last = before.at(-1)!;
    // Off a terminal without --yes: refused, exit 2, nothing changed.
    const refused = await run(['db', 'rollback']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`This reverts 1 migration(s), newest first:\n  ${last}`);
    expect(refused.err).toContain('Nothing was changed: pass --yes to confirm');
    expect(refused.out).toBe('');
    expect((jsonOf(await run(['db', 'status', '--json'])) as unknown as { applied: string[] }).applied).toEqual(before);

    const one = await run(['db', 'rollback', '--yes']);
    expect(one).toMatchObject({ code: 0, out: `Reverted 1 migration(s):\n  ${last}\n` });
    expect((jsonOf(await run(['db', 'status', '--json'])) as unknown as { pending: string[] }).pending).toEqual([last]);
    expect((await run(['db', 'migrate'])).code).toBe(0);

    // Every migration: the initial schema's tables are named among what goes.
    const all = await run(['db', 'rollback', '--all']);
    expect(all.code).toBe(2);
    expect(all.err).toMatch(/20261121000000_initial_schema: drops [\w, ]*\busers\b/);
    expect(await t.db.schema.hasTable('users')).toBe(true);
    expect((await run(['db', 'rollback', '--step', '0'])).code).toBe(2);
    expect((await run(['db', 'rollback', '--step', '2', '--all', '--yes'])).code).toBe(2);
    const two = await run(['db', 'rollback', '--step', '2', '--yes']);
    expect(two.out).toBe(`Reverted 2 migration(s):\n  ${before.at(-1)}\n  ${before.at(-2)}\n`);
    expect((await run(['db', 'migrate'])).code).toBe(0);
  });

  it('makes the first user an admin and says so; later ones staff; names empty; passwords from stdin', async () => {
    const first = await run(['users', 'create', '--email', 'first@example.org', '--password-stdin'], {
      input: 'first password\nignored\n',
    });
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/^Created user first@example\.org \(id \d+, admin\)\nIt is an admin: the database had no active admin\.\n$/);
    const second = await run(['users', 'create', '--email', 'second@example.org', '--password-stdin', '--json'], {
      input: 'second password',
    });
    expect(second.code).toBe(0);
    expect(jsonOf(second)).toMatchObject({ email: 'second@example.org', role: 'staff', firstName: '', lastName: '' });
    const viewer = await run(['users', 'create', '--email', 'v@example.org', '--password', 'viewer password', '--role', 'viewer']);
    expect(viewer.out).toContain('viewer)');

    const empty = await run(['users', 'set-password', '--email', 'second@example.org', '--password-stdin'], { input: '\n' });
    expect(empty).toMatchObject({ code: 2, err: 'The password read from standard input is empty.\n' });
    const both = await run(['users', 'create', '--email', 'x@example.org', '--password', 'a long password', '--password-stdin']);
    expect(both.code).toBe(2);
    const before = (await t.db('users').where({ email: 'second@example.org' }).first()) as { passwordHash: string };
    expect(
      (await run(['users', 'set-password', '--email', 'second@example.org', '--password-stdin'], { input: 'a new password\n' })).code,
    ).toBe(0);
    const after = (await t.db('users').where({ email: 'second@example.org' }).first()) as { passwordHash: string };
    expect(after.passwordHash).not.toBe(before.passwordHash);
  });

  it('prints every --json failure as one document in one shape', async () => {
    const duplicate = await run(['users', 'create', '--email', 'first@example.org', '--password', 'long enough pw', '--json']);
    expect(duplicate.code).toBe(1);
    expect(jsonOf(duplicate)).toEqual({ error: { code: 'conflict', message: 'A user with the email first@example.org already exists' } });
    const weak = await run(['users', 'create', '--email', 'weak@example.org', '--password', 'short', '--json']);
    expect(weak.code).toBe(2);
    expect(jsonOf(weak).error).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ path: 'password' })] });
    const usage = await run(['users', 'create', '--json']);
    expect(usage.code).toBe(2);
    expect(jsonOf(usage).error).toMatchObject({ code: 'usage', message: expect.stringContaining('--email') });
    // Not configured: it printed nothing at all before.
    const audiences = await run(['mailchimp', 'audiences', '--json']);
    expect(audiences.code).not.toBe(0);
    expect(Object.keys(jsonOf(audiences).error!).sort()).toEqual(['code', 'message']);
    const settings = await run(['trash', 'purge', '--json'], { env: { PORT: 'eighty' } });
    expect(settings.code).toBe(2);
    expect(jsonOf(settings).error).toMatchObject({ code: 'invalid_settings', details: [expect.stringContaining('PORT')] });
    const purged = await run(['trash', 'purge', '--dry-run', '--json']);
    expect(jsonOf(purged)).toEqual({ dryRun: true, items: [], files: 0 });
  });

  it('escapes control characters in names on a human listing, not in --json', async () => {
    const attack = 'Eve\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J\u009b31m';
    await t.db('users').where({ email: 'second@example.org' }).update({ firstName: attack });
    const listed = await run(['users', 'list']);
    expect(listed.code).toBe(0);
    // eslint-disable-next-line no-control-regex -- what must not reach the terminal
    expect(listed.out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(listed.out).toContain('Eve\\x1b]52;c;cm0gLXJmIH4=\\x07\\x1b[2J\\x9b31m');
    const json = await run(['users', 'list', '--json']);
    // eslint-disable-next-line no-control-regex -- JSON escapes them itself
    expect(json.out).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect((JSON.parse(json.out) as Array<{ firstName: string }>).map((user) => user.firstName)).toContain(attack);
  });

  it('needs no SESSION_SECRET in production, and creates nothing in the folder it is run from', async () => {
    const listed = await run(['users', 'list'], { env: { NODE_ENV: 'production', BCRYPT_COST: '12' } });
    expect(listed.code).toBe(0);
    expect(listed.out).toContain('first@example.org');
    expect(readdirSync(pacer.cwd)).toEqual([]);
    expect(existsSync(path.join(pacer.root, 'data', 'session-secret'))).toBe(false);
  });

  it('keeps the default data/ files in the project folder, or in PACER_HOME, never the current folder', async () => {
    const noDatabase = (env: Record<string, string>) => pacer.run(env, ['db', 'migrate']);
    expect((await noDatabase({})).code).toBe(0);
    expect(existsSync(path.join(pacer.root, 'data', 'pacer.sqlite'))).toBe(true);
    const home = mkdtempSync(path.join(tmpdir(), 'pacer-home-'));
    try {
      expect((await noDatabase({ PACER_HOME: home })).code).toBe(0);
      expect(existsSync(path.join(home, 'data', 'pacer.sqlite'))).toBe(true);
      expect(readdirSync(pacer.cwd)).toEqual([]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  /** `script` (util-linux) gives the command a pseudo-terminal; what we write to its stdin is typed there. */
  const onTerminal = (args: string[], typed: string) =>
    new Promise<PacerRun>((resolve) => {
      const command = [process.execPath, pacer.bin, ...args].map((word) => `'${word}'`).join(' ');
      const child = spawn('script', ['-qfec', command, '/dev/null'], {
        cwd: pacer.cwd,
        env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', BCRYPT_COST: '4', DATABASE_URL: t.url, TERM: 'dumb' },
      });
      let out = '';
      let typedYet = false;
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        // Typed once the question is on the screen, as a person would.
        if (!typedYet && out.includes('[y/N]')) {
          typedYet = true;
          child.stdin.write(typed);
        }
      });
      child.on('close', (code) => resolve({ code, out, err: '' }));
    });

  it('asks on a terminal: anything but yes changes nothing, yes reverts', async () => {
    const applied = async () => (jsonOf(await run(['db', 'status', '--json'])) as unknown as { applied: string[] }).applied;
    const before = await applied();
    const no = await onTerminal(['db', 'rollback'], 'n\r');
    expect(no.code).toBe(2);
    expect(no.out).toContain(`${before.at(-1)}`);
    expect(no.out).toContain('Cancelled: nothing was changed.');
    expect(await applied()).toEqual(before);
    const yes = await onTerminal(['db', 'rollback'], 'y\r');
    expect(yes.code).toBe(0);
    expect(yes.out).toContain(`Reverted 1 migration(s):`);
    expect(await applied()).toEqual(before.slice(0, -1));
  });
});
