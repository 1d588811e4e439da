import { userInfo } from 'node:os';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reindexProgress } from '@cli/commands/db.js';
import { runPacer } from '../helpers/cli-io.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

describe('pacer users and pacer db', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => t.destroy());

  const run = (...argv: string[]) => runPacer({ DATABASE_URL: t.url }, argv);

  it('migrates the schema and reports when there is nothing left to do', async () => {
    const first = await run('db', 'migrate');
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/Applied \d+ migration/);
    expect(first.out).toContain('Search index and counts rebuilt (their definition changed).');
    expect(await t.db.schema.hasTable('contacts')).toBe(true);
    expect((await run('db', 'migrate')).out).toBe('Already up to date.\n');
  });

  it('records a history entry for a user created with pacer users create, naming the CLI run', async () => {
    expect((await run('users', 'create', '--email', 'hist@example.org', '--password', 'long enough pw', '--role', 'viewer')).code).toBe(0);
    const user = (await t.db('users').where({ email: 'hist@example.org' }).first()) as { id: number };
    const rows = (await t.db('history').where({ entityType: 'user', entityId: user.id })) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'create', actorId: null, actorKind: 'cli', actorLabel: userInfo().username });
    expect(JSON.parse(rows[0]!.changes as string)).toMatchObject({ email: 'hist@example.org', role: 'viewer' });
    // A refused create leaves no entry behind.
    expect((await run('users', 'create', '--email', 'hist@example.org', '--password', 'long enough pw')).code).toBe(1);
    expect(await t.db('history').where({ entityType: 'user' }).count({ n: '*' })).toEqual([{ n: 1 }]);
    await t.db('history').where({ entityType: 'user', entityId: user.id }).delete();
    await t.db('users').where({ id: user.id }).delete();
  });

  it('creates, lists, re-passwords and deactivates users', async () => {
    const created = await run(
      'users',
      'create',
      '--email',
      'Ops@Example.org',
      '--password',
      'long enough pw',
      '--first-name',
      'Olga',
      '--role',
      'staff',
    );
    expect(created.code).toBe(0);
    expect(created.out).toContain('Created user ops@example.org');
    const duplicate = await run('users', 'create', '--email', 'ops@example.org', '--password', 'long enough pw');
    expect(duplicate.code).toBe(1);
    expect(duplicate.err).toContain('already exists');
    const weak = await run('users', 'create', '--email', 'weak@example.org', '--password', 'short');
    expect(weak.code).toBe(2);
    expect(weak.err).toContain('Password must be at least 8 characters');

    const listed = await run('users', 'list', '--json');
    expect(JSON.parse(listed.out)).toEqual([expect.objectContaining({ email: 'ops@example.org', firstName: 'Olga', isActive: true })]);
    const before = (await t.db('users').where({ email: 'ops@example.org' }).first()) as { id: number; passwordHash: string; role: string };
    expect(before.passwordHash).toMatch(/^\$2[ab]\$/);
    expect(before.role).toBe('staff');
    const signedIn = { userId: before.id, createdAt: '2026-11-21 09:00:00.000', lastSeenAt: '2026-11-21 09:00:00.000' };
    await t.db('sessions').insert({ ...signedIn, id: 'a'.repeat(64) });

    expect((await run('users', 'set-password', '--email', 'ops@example.org', '--password', 'another long pw')).code).toBe(0);
    const after = (await t.db('users').where({ email: 'ops@example.org' }).first()) as { passwordHash: string };
    expect(after.passwordHash).not.toBe(before.passwordHash);
    // A new password ends every session of the user.
    expect(await t.db('sessions').where({ userId: before.id }).count({ n: '*' })).toEqual([{ n: 0 }]);

    await t.db('sessions').insert({ ...signedIn, id: 'b'.repeat(64) });
    const promoted = await run('users', 'set-role', '--email', 'ops@example.org', '--role', 'admin');
    expect(promoted).toMatchObject({ code: 0, out: 'ops@example.org is now admin\n' });
    expect((await t.db('users').where({ id: before.id }).first()).role).toBe('admin');
    expect(await t.db('sessions').where({ userId: before.id }).count({ n: '*' })).toEqual([{ n: 0 }]);
    const badRole = await run('users', 'set-role', '--email', 'ops@example.org', '--role', 'owner');
    expect(badRole.code).toBe(2);
    expect(badRole.err).toContain('Allowed choices are admin, staff, viewer');
    // The last active admin stays one: demoting or deactivating them is refused with a reason.
    const lastAdmin = await run('users', 'set-role', '--email', 'ops@example.org', '--role', 'viewer');
    expect(lastAdmin.code).toBe(1);
    expect(lastAdmin.err).toContain('This is the last active admin');
    expect((await run('users', 'deactivate', '--email', 'ops@example.org')).err).toContain('This is the last active admin');
    const viewer = await run('users', 'create', '--email', 'view@example.org', '--password', 'long enough pw', '--role', 'viewer');
    expect(viewer.out).toContain('Created user view@example.org (id');
    expect(viewer.out).toContain('viewer)');
    expect((await run('users', 'set-role', '--email', 'ops@example.org', '--role', 'staff')).err).toContain(
      'This is the last active admin',
    );
    expect((await run('users', 'set-role', '--email', 'view@example.org', '--role', 'admin')).code).toBe(0);

    expect((await run('users', 'deactivate', '--email', 'ops@example.org')).code).toBe(0);
    expect((await run('users', 'list')).out).toMatch(/ops@example\.org.*admin\s+inactive/);
    const missing = await run('users', 'deactivate', '--email', 'nobody@example.org');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('No user with the email nobody@example.org');
  });

  it('refuses to prompt for a password when stdin is not a terminal', async () => {
    const res = await run('users', 'create', '--email', 'prompt@example.org');
    expect(res.code).toBe(2);
    expect(res.err).toContain('standard input is not a terminal');
  });

  it('answers usage errors with exit code 2', async () => {
    expect((await run('users', 'create')).code).toBe(2);
    expect((await run('no-such-command')).code).toBe(2);
  });

  it('seeds believable demo data across all six record types, once', async () => {
    const seeded = await run('db', 'seed', '--demo');
    expect(seeded.code).toBe(0);
    expect(seeded.out).toMatch(/Demo data loaded: 8 events, 6 professionals, 5 run clubs, 6 brands, 4 media, 5 influencers, \d+ contacts/);
    for (const table of ['events', 'professionals', 'run_clubs', 'brands', 'media', 'influencers', 'contacts', 'payments']) {
      const row = (await t.db(table).count({ n: '*' }).first()) as { n: number };
      expect(Number(row.n), table).toBeGreaterThan(0);
    }
    const owners = (await t.db('contacts').distinct('entityType').pluck('entityType')) as string[];
    expect(owners.sort()).toEqual(['brand', 'event', 'media', 'professional', 'runclub']);
    // Its payments went through the payments' write, so the dashboard's totals count them.
    // (The demo's dates follow the day it is seeded, so which months have spend does too.)
    const buckets = (await t.db('payment_totals').orderBy('bucket').pluck('bucket')) as string[];
    expect(buckets[0]).toBe('awaiting');
    expect(buckets.length).toBeGreaterThan(1);
    for (const bucket of buckets.slice(1)) expect(bucket).toMatch(/^spend:\d{4}-\d{2}$/);
    const again = await run('db', 'seed', '--demo');
    expect(again.code).toBe(1);
    expect(again.err).toContain('already has records');
  });

  it('rebuilds the search index, counts and payment totals from the rows', async () => {
    await t.db('record_counts').delete();
    await t.db('record_search_grams').delete();
    await t.db('payment_totals').delete();
    await t.db('record_search_docs').delete();
    const res = await run('db', 'reindex');
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/^Search index and counts rebuilt in \d+\.\d s\.\n$/);
    // Progress on stderr (not a terminal here: whole lines): each phase with rows done of the total, the rate, and
    // the time it took once finished.
    expect(res.err).toMatch(/^events: documents: 0 of 8 \(0 %\), 0\/s$/m);
    expect(res.err).toMatch(/^events: documents: 8 of 8 \(100 %\), [\d,]+\/s in \d+\.\d s$/m);
    expect(res.err).toMatch(/^contacts: postings: ([\d,]+) of \1 \(100 %\), [\d,]+\/s in \d+\.\d s$/m);
    expect(res.err).toMatch(/^payment totals in \d+\.\d s$/m);
    // Search works on the rebuilt index: a substring of a record's name, and of a contact's.
    const found = await run('export', 'events', '--q', 'harbour half');
    expect(found.code).toBe(0);
    expect(found.out).toContain('Sydney Harbour Half Marathon');
    expect(found.out.trim().split('\n')).toHaveLength(2);
    const contact = (await t.db('contacts').first('lastName')) as { lastName: string };
    const contacts = await run('export', 'contacts', '--q', contact.lastName.slice(1).toUpperCase());
    expect(contacts.out).toContain(contact.lastName);
    const totals = (await t.db('record_counts').where({ bucket: 'all' }).pluck('total')) as Array<number | string>;
    // The six record types and the demo's 30 contacts.
    expect(totals.map(Number).sort((a, b) => a - b)).toEqual([4, 5, 5, 6, 6, 8, 30]);
    expect(Number(((await t.db('record_search_grams').count({ n: '*' }).first()) as { n: number }).n)).toBeGreaterThan(0);
    // The demo's three pending payments.
    const awaiting = (await t.db('payment_totals').where({ bucket: 'awaiting' }).first()) as { payments: number; cents: number | string };
    expect([Number(awaiting.payments), Number(awaiting.cents)]).toEqual([3, 644900]);
  });

  it('redraws one progress line on a terminal, ending each phase on its own line', () => {
    const terminal = Object.assign(new PassThrough(), { isTTY: true });
    let written = '';
    terminal.on('data', (chunk: Buffer) => (written += chunk.toString()));
    const progress = reindexProgress(terminal);
    progress.update({ phase: 'events: documents', done: 0, total: 2 });
    progress.update({ phase: 'events: documents', done: 2, total: 2 });
    progress.update({ phase: 'swapping in the new index', done: 0, total: 1 });
    progress.update({ phase: 'swapping in the new index', done: 1, total: 1 });
    progress.done();
    const lines = written.split('\n');
    expect(lines[0]).toMatch(/^\revents: documents: 0 of 2 \(0 %\), 0\/s\revents: documents: 2 of 2 \(100 %\), [\d,]+\/s in \d+\.\d s$/);
    expect(lines[1]).toMatch(/^\rswapping in the new index… *\rswapping in the new index in \d+\.\d s *$/);
    expect(lines[2]).toBe('');
  });

  it('rolls back every migration with --all --yes', async () => {
    const res = await run('db', 'rollback', '--all', '--yes');
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/Reverted \d+ migration/);
    expect(await t.db.schema.hasTable('events')).toBe(false);
  });
});
