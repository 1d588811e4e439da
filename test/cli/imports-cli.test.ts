import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '@cli/program.js';
import type { CliIO } from '@cli/runtime.js';
import { encodeTimestamp } from '@db/codecs.js';
import {
  ACCENTED,
  brandsText,
  utf16beWithBom,
  utf16leWithBom,
  utf8WithBom,
  utf8WithLateBadByte,
  windows1252,
} from '../helpers/csv-bytes.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

function capture(stream: PassThrough & { isTTY?: boolean }) {
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

describe('pacer import', () => {
  let database: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-import-cli-'));
  });
  afterAll(async () => {
    await database.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await database.db('contacts').del();
    await database.db('events').del();
    await database.db('brands').del();
  });

  async function run(argv: string[], options: { stdin?: string | Buffer | Readable; tty?: boolean } = {}) {
    const stdout = new PassThrough() as PassThrough & { isTTY?: boolean };
    const stderr = new PassThrough() as PassThrough & { isTTY?: boolean };
    stderr.isTTY = options.tty;
    const out = capture(stdout);
    const err = capture(stderr);
    const io: CliIO = {
      stdout,
      stderr,
      stdin:
        options.stdin instanceof Readable ? options.stdin : Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
      env: { DATABASE_URL: database.url, NODE_ENV: 'test', BCRYPT_COST: '4', SESSION_SECRET: 'cli-test-secret-cli-test-secret-0123456789' },
    };
    const code = await runCli(argv, io);
    return { code, stdout: out(), stderr: err() };
  }

  function file(name: string, text: string | Buffer) {
    const target = path.join(dir, name);
    writeFileSync(target, text);
    return target;
  }

  const brandsCsv =
    'Brand,First Name,Last Name,Email,Current Job\n"Fleet Feet, Inc.",Jane,Doe,jane@ff.example.com,Buyer\nBrooks,John,Smith,john@brooks.example.com,\n';
  const count = async (table: string) => Number(((await database.db(table).count({ n: '*' }).first()) as { n: number | string }).n);

  it('imports brands from a file, prints a summary and exits 0', async () => {
    const result = await run(['import', 'brands', file('brands.csv', brandsCsv)]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Import finished: created 2 brands and 2 contacts; skipped 0.');
    expect(result.stdout).toContain('Rows: 2 read, 2 applied, 0 failed, 0 dropped');
    expect(await count('brands')).toBe(2);
    const contact = await database.db('contacts').where({ email: 'jane@ff.example.com' }).first();
    expect(contact).toMatchObject({ firstName: 'Jane', lastName: 'Doe', jobTitle: 'Buyer', entityType: 'brand', createdBy: null });
  });

  it('--dry-run reports what would change and writes nothing', async () => {
    const result = await run([
      'import',
      'brands',
      file('dry.csv', brandsCsv + 'brooks,Amy,Lee,amy@brooks.example.com,\nBROOKS,Amy,Lee,AMY@brooks.example.com,\n'),
      '--dry-run',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      brandsCreated: 2,
      contactsCreated: 3,
      skipped: 1,
      errors: [],
      rowsRead: 4,
      droppedRows: 0,
      appliedRows: 4,
      failedRows: 0,
      dryRun: true,
    });
    expect(await count('brands')).toBe(0);
    expect(await count('contacts')).toBe(0);
  });

  it('reads standard input with -, and exits 3 when some rows failed', async () => {
    const now = encodeTimestamp(new Date());
    await database.db('events').insert({ eventName: 'City Run', wordpressEventId: 55, createdAt: now, updatedAt: now });
    const csv = 'event_id,website,Email\n55,cityrun.example.org,a@cityrun.example.org\n56,x.example.org,b@x.example.org\n';
    const result = await run(['import', 'events', '-', '--json'], { stdin: csv });
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({
      updated: 1,
      created: 1,
      skipped: 1,
      errors: ['Line 3: no event has event_id 56'],
      failedRows: 1,
    });
    expect(await database.db('events').where({ wordpressEventId: 55 }).first()).toMatchObject({
      websiteUrl: 'https://cityrun.example.org',
    });
  });

  it('exits 1 when nothing could be imported, with the spec message', async () => {
    const missing = await run(['import', 'brands', file('bad-header.csv', 'Brand,Email\nX,x@x.example.com\n')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Missing required column: First Name');
    const broken = await run(['import', 'events', file('broken.csv', 'event_id,website,Email\n1,"unclosed,a@b.org\n')]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('Invalid CSV format');
    const allFailed = await run(['import', 'events', file('unknown.csv', 'event_id,website,Email\n77,,a@b.example.org\n')]);
    expect(allFailed.code).toBe(1);
    expect(allFailed.stdout).toContain('Line 2: no event has event_id 77');
    const empty = await run(['import', 'brands', file('empty.csv', '\n')]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('Please enter CSV data');
  });

  describe('text encodings and separators', () => {
    const storedBrands = async () =>
      ((await database.db('brands').orderBy('brandName').select('brandName')) as Array<{ brandName: string }>).map((b) => b.brandName);
    const storedContacts = async () =>
      ((await database.db('contacts').orderBy('email').select('firstName', 'lastName', 'email')) as Array<Record<string, string>>).map(
        (c) => [c.firstName, c.lastName, c.email],
      );
    /** Every text column of every imported row, to prove no U+FFFD was ever stored. */
    const everythingStored = async () => JSON.stringify([await database.db('brands').select(), await database.db('contacts').select()]);

    it.each([
      ['Windows-1252 (Excel on Windows)', () => windows1252(brandsText())],
      ['UTF-8 with a BOM', () => utf8WithBom(brandsText())],
      ['UTF-16 LE with a BOM, tab separated', () => utf16leWithBom(brandsText('\t'))],
      ['UTF-16 BE with a BOM', () => utf16beWithBom(brandsText(',', '\n'))],
      ['Windows-1252, semicolon separated', () => windows1252(brandsText(';'))],
    ])('imports a %s file with every accent exactly as written', async (_name, bytes) => {
      const result = await run(['import', 'brands', file('accents.csv', bytes())]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(await storedBrands()).toEqual(['Brooks Running', ACCENTED.brand]);
      expect(await storedContacts()).toEqual([
        [ACCENTED.firstName, ACCENTED.lastName, ACCENTED.email],
        ['Zoë', 'Faßbender', 'zoe@brooks.example.com'],
      ]);
      expect(await everythingStored()).not.toContain('\uFFFD');
    });

    it('reads a UTF-16 file from standard input', async () => {
      const result = await run(['import', 'brands', '-', '--json'], { stdin: utf16leWithBom(brandsText('\t')) });
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ brandsCreated: 2, contactsCreated: 2, errors: [] });
      expect(await storedBrands()).toEqual(['Brooks Running', 'Café Running']);
    });

    it('names the separator when a required column is still missing', async () => {
      const result = await run([
        'import',
        'brands',
        file('semicolons.csv', windows1252('Brand;Vorname;Nachname;Email\r\nCaf\xe9;A;B;a@b.example.org\r\n')),
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('Missing required column: First Name (the header line is separated by semicolons)');
      expect(await storedBrands()).toEqual([]);
    });

    it('refuses a UTF-8 file at a late invalid byte, naming its line, and stores no U+FFFD', async () => {
      // About 600 kB: the bad byte comes long after UTF-8 was chosen and batches were written.
      const result = await run(['import', 'brands', file('late.csv', utf8WithLateBadByte(20_000, 19_000)), '--batch-size', '1000']);
      expect(result.stderr).toContain('Error: Line 19000: not valid UTF-8 text (a character would be stored as \uFFFD)');
      // Whole batches before the line were applied (a re-run of the fixed file completes the rest); none after it.
      expect(result.code).toBe(3);
      expect(await storedBrands()).toContain(ACCENTED.brand);
      expect(await database.db('contacts').where({ email: 'late19000@example.com' }).first()).toBeUndefined();
      expect(await everythingStored()).not.toContain('\uFFFD');
    });

    it('reports a read error on its input instead of crashing: the stream is connected before anything is awaited', async () => {
      const stdin = new Readable({
        read() {
          this.destroy(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' }));
        },
      });
      const result = await run(['import', 'brands', '-'], { stdin });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('EIO: i/o error, read');
    });
  });

  it('exits 2 on bad usage', async () => {
    expect((await run(['import', 'brands'])).code).toBe(2);
    expect((await run(['import', 'teams', 'x.csv'])).code).toBe(2);
    const missingFile = await run(['import', 'brands', path.join(dir, 'nope.csv')]);
    expect(missingFile.code).toBe(2);
    expect(missingFile.stderr).toContain('ENOENT');
    expect((await run(['import', 'brands', file('b.csv', brandsCsv), '--batch-size', '0'])).code).toBe(2);
  });

  it('shows progress on stderr: plain lines when not a terminal, a bar on one', async () => {
    const rows = Array.from({ length: 25_000 }, (_, i) => `Brand ${i % 100},Pat,Lee,pat${i}@example.com,`).join('\n');
    const big = file('big.csv', `Brand,First Name,Last Name,Email,Current Job\n${rows}\n`);
    const plain = await run(['import', 'brands', big, '--dry-run']);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toMatch(/^10,000 rows read, 0 failed \(.* rows\/s\)\n20,000 rows read/);
    const tty = await run(['import', 'brands', big, '--dry-run', '--batch-size', '5000'], { tty: true });
    expect(tty.stderr).toContain('\r[##############################] 100%  25,000 rows read');
    expect(await count('contacts')).toBe(0);
  });

  it('imports in batches: a re-run after a partial run completes it without duplicates', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `Brand ${i % 4},Pat,Lee,pat${i}@example.com,`);
    const half = file('half.csv', `Brand,First Name,Last Name,Email,Current Job\n${rows.slice(0, 15).join('\n')}\n`);
    const whole = file('whole.csv', `Brand,First Name,Last Name,Email,Current Job\n${rows.join('\n')}\n`);
    expect((await run(['import', 'brands', half, '--batch-size', '4'])).code).toBe(0);
    const rerun = await run(['import', 'brands', whole, '--batch-size', '7', '--json']);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ brandsCreated: 0, contactsCreated: 15, skipped: 15 });
    expect(await count('brands')).toBe(4);
    expect(await count('contacts')).toBe(30);
  });

  it('a run killed part-way leaves every row fully applied or untouched, and running it again completes it', async () => {
    const total = 30_000;
    const rows = Array.from({ length: total }, (_, i) => `Brand ${i % 700},Pat,Lee,"a${i}@example.com; b${i}@example.com",`);
    const csv = file('kill.csv', `Brand,First Name,Last Name,Email,Current Job\n${rows.join('\n')}\n`);
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli/index.ts', 'import', 'brands', csv, '--batch-size', '500'], {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        NODE_ENV: 'test',
        BCRYPT_COST: '4',
        SESSION_SECRET: 'cli-test-secret-cli-test-secret-0123456789',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        // Killed as soon as the first progress line shows batches have committed.
        if (stderr.includes('rows read')) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', () => reject(new Error(`the import finished before it could be killed: ${stderr}`)));
    });
    await new Promise((resolve) => child.on('close', resolve));

    const stored = new Set(((await database.db('contacts').select('email')) as Array<{ email: string }>).map((row) => row.email));
    expect(stored.size).toBeGreaterThan(0);
    expect(stored.size).toBeLessThan(total * 2);
    const halfApplied = Array.from({ length: total }, (_, i) => i).filter(
      (i) => stored.has(`a${i}@example.com`) !== stored.has(`b${i}@example.com`),
    );
    expect(halfApplied).toEqual([]);
    const orphans = await database
      .db('contacts')
      .leftJoin('brands', 'brands.id', 'contacts.entityId')
      .whereNull('brands.id')
      .count({ n: '*' })
      .first();
    expect(Number((orphans as { n: number | string }).n)).toBe(0);

    const rerun = await run(['import', 'brands', csv, '--json']);
    expect(rerun.code).toBe(0);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ contactsCreated: total * 2 - stored.size, skipped: stored.size, errors: [] });
    expect(await count('contacts')).toBe(total * 2);
    expect(await count('brands')).toBe(700);
  }, 120_000);
});
