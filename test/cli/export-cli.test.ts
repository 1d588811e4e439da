import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '@cli/program.js';
import type { CliIO } from '@cli/runtime.js';
import { encodeTimestamp } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import { insertContact } from '@services/contacts/writes.js';
import { insertRecordRows } from '@services/records/writes.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

describe('pacer export', () => {
  let database: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-export-cli-'));
    const now = encodeTimestamp(new Date('2026-11-21T09:00:00Z'));
    await withTransaction({ db: database.db }, (trx) =>
      insertRecordRows(trx, 'event', [
        { eventName: 'Bravo Trail', featuredRace: 1, eventStartDate: '2026-05-01', createdAt: now, updatedAt: now },
        { eventName: 'Alpha Trail', featuredRace: 0, eventStartDate: '2026-06-01', createdAt: now, updatedAt: now },
        { eventName: 'Charlie Road', featuredRace: 1, eventStartDate: '2026-07-01', createdAt: now, updatedAt: now },
      ]),
    );
  });
  afterAll(async () => {
    await database.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(argv: string[], options: { tty?: boolean } = {}) {
    const stdout = new PassThrough() as PassThrough & { isTTY?: boolean };
    const stderr = new PassThrough() as PassThrough & { isTTY?: boolean };
    stderr.isTTY = options.tty;
    const chunks: Buffer[] = [];
    let err = '';
    stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const io: CliIO = {
      stdout,
      stderr,
      stdin: Readable.from([]),
      env: { DATABASE_URL: database.url, NODE_ENV: 'test', SESSION_SECRET: 'cli-test-secret-cli-test-secret-0123456789' },
    };
    const code = await runCli(argv, io);
    return { code, stdout: Buffer.concat(chunks), stderr: err };
  }

  const names = (bytes: Buffer) => (parse(bytes.subarray(3).toString('utf8')) as string[][]).slice(1).map((row) => row[0]);

  it('writes the filtered, searched and sorted list to stdout as CSV with a BOM', async () => {
    const result = await run(['export', 'events', '--q', 'trail', '--sort', 'eventName', '--dir', 'desc']);
    expect(result.code).toBe(0);
    expect([...result.stdout.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(names(result.stdout)).toEqual(['Bravo Trail', 'Alpha Trail']);
    expect(result.stderr).toBe('');
    const featured = await run(['export', 'events', '--filter', 'featured', '--sort', 'eventStartDate']);
    expect(names(featured.stdout)).toEqual(['Bravo Trail', 'Charlie Road']);
  });

  it('writes a file whole, with progress on a terminal', async () => {
    const out = path.join(dir, 'events.csv');
    const result = await run(['export', 'events', '--out', out], { tty: true });
    expect(result.code).toBe(0);
    expect(result.stdout.length).toBe(0);
    expect(names(readFileSync(out))).toEqual(['Charlie Road', 'Alpha Trail', 'Bravo Trail']);
    expect(result.stderr).toContain('3 rows exported');
    expect(readdirSync(dir).filter((name) => name.includes('.partial-'))).toEqual([]);
  });

  it('exports the contacts directory, filtered by owner type', async () => {
    const [eventId] = (await database.db('events').where({ eventName: 'Alpha Trail' }).pluck('id')) as number[];
    const now = encodeTimestamp(new Date('2026-11-21T09:00:00Z'));
    // Through the contact writes, which keep the search index the export's --q reads.
    await withTransaction({ db: database.db }, (trx) =>
      insertContact(trx, {
        firstName: 'Tess',
        lastName: 'Trail',
        email: 'tess@example.org',
        mailchimpTags: [],
        entityType: 'event',
        entityId: eventId,
        isPrimary: false,
        createdAt: now,
        updatedAt: now,
      }),
    );
    const result = await run(['export', 'contacts', '--filter', 'event', '--q', 'tess']);
    expect(result.code).toBe(0);
    const rows = parse(result.stdout.subarray(3).toString('utf8')) as string[][];
    expect(rows[0]!.slice(0, 3)).toEqual(['First Name', 'Last Name', 'Email']);
    expect(rows.slice(1).map((row) => [row[0], row[8]])).toEqual([['Tess', 'Alpha Trail']]);
    const refused = await run(['export', 'contacts', '--filter', 'influencer']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('ownerType must be one of');
  });

  it('refuses bad usage with exit code 2 and a message', async () => {
    for (const [argv, message] of [
      [['export', 'events', '--sort', 'notes'], 'sort must be one of: newest, upcoming, eventName'],
      [['export', 'brands', '--filter', 'featured'], 'brands has no filter'],
      [['export', 'events', '--filter', 'gold'], 'filter must be one of: all, featured, regular'],
      [['export', 'payments'], "value 'payments' is invalid"],
    ] as const) {
      const result = await run([...argv]);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
    }
    const missing = path.join(dir, 'no-such-dir', 'x.csv');
    const failed = await run(['export', 'events', '--out', missing]);
    expect(failed.code).toBe(1);
    expect(existsSync(missing)).toBe(false);
  });

  it('is kept in the activity log, naming the command line, and only when it finished', async () => {
    const exports = () => database.db('activity_events').where({ kind: 'export' }).orderBy('id');
    const before = (await exports()).length;
    expect((await run(['export', 'events', '--q', 'trail'])).code).toBe(0);
    const after = await exports();
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({ source: 'cli', actorId: null, summary: 'Exported events as CSV with pacer export (2 rows)' });
    // A refused export is none.
    expect((await run(['export', 'events', '--out', path.join(dir, 'no-such-dir', 'x.csv')])).code).toBe(1);
    expect(await exports()).toHaveLength(before + 1);
  });
});
