import { spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { runCli } from '@cli/program.js';
import { createDatabase } from '@db/knex.js';
import { withTransaction } from '@db/transaction.js';
import { createBackup } from '@services/backup/backup.js';
import { readTar, tarStream } from '@services/backup/tar.js';
import type { Manifest } from '@services/backup/format.js';
import { insertRecordRows } from '@services/records/writes.js';
import { migrateToLatest } from '@services/schema.js';
import { fakeIO } from '../helpers/cli-io.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/db.js';
import { startTestS3, type TestS3 } from '../helpers/s3.js';
import { insertFileRow, insertTrashedFile } from '../helpers/stored-files.js';
import { testConfig } from '../helpers/app.js';
import pino from 'pino';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The archive's parts, whole (the test archives are small). */
async function partsOf(file: string): Promise<Map<string, Buffer>> {
  const parts = new Map<string, Buffer>();
  const bytes = gunzipSync(readFileSync(file));
  for await (const entry of readTar(
    (async function* () {
      yield bytes;
    })(),
  )) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry.body) chunks.push(chunk);
    parts.set(entry.name, Buffer.concat(chunks));
  }
  return parts;
}

/** Writes an archive of these parts (in this order). */
async function writeArchive(file: string, parts: Map<string, Buffer>): Promise<void> {
  const chunks: Buffer[] = [];
  const sources = [...parts].map(([name, bytes]) => ({ name, size: bytes.length, body: [bytes] }));
  for await (const chunk of tarStream(
    (async function* () {
      yield* sources;
    })(),
    new Date(),
  ))
    chunks.push(chunk);
  writeFileSync(file, gzipSync(Buffer.concat(chunks)));
}

const rowsOf = (part: Buffer) => part.toString('utf8').trim().split('\n').slice(1);

/** Every duplicate pair, in one order, as compared between a source and its restore. */
const pairsOf = (db: Knex) =>
  db('duplicate_pairs').orderBy(['kind', 'lowId', 'highId']).select('kind', 'lowId', 'highId', 'score', 'reasons');

/** The pair of the two similar brand names the source was given. */
async function stridewellPair(db: Knex) {
  const ids = (await db('brands').whereIn('brandName', ['Stridewell Running', 'Stridewel Runing']).orderBy('id').pluck('id')) as number[];
  return db('duplicate_pairs').where({ kind: 'brand', lowId: ids[0], highId: ids[1] }).first('score', 'reasons');
}

async function tableCounts(db: Knex, tables: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table] = Number(((await db(table).count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
  return counts;
}

/** A SQLite database of its own (the cross-kind tests need one whatever TEST_DATABASE_URL says). */
async function sqliteDatabase(): Promise<{ url: string; db: Knex; destroy(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pacer-backup-sqlite-'));
  const url = `sqlite:${path.join(dir, 'pacer.sqlite')}`;
  const db = createDatabase({ url });
  await migrateToLatest(db);
  return { url, db, destroy: async () => (await db.destroy(), rmSync(dir, { recursive: true, force: true })) };
}

describe('pacer db backup, verify and restore', () => {
  let source: TestDatabase;
  let work: string;
  let uploads: string;
  let base: NodeJS.ProcessEnv;
  const files = new Map<string, Buffer>();

  const run = async (args: string[], env: NodeJS.ProcessEnv = base) => {
    const io = fakeIO(env);
    const code = await runCli(args, io.io);
    return { code, stdout: io.stdout(), stderr: io.stderr() };
  };

  beforeAll(async () => {
    source = await createTestDatabase();
    work = mkdtempSync(path.join(tmpdir(), 'pacer-backup-'));
    uploads = path.join(work, 'uploads');
    base = {
      NODE_ENV: 'test',
      DATABASE_URL: source.url,
      UPLOAD_DIR: uploads,
      SESSION_SECRET: 'x'.repeat(40),
      LOG_LEVEL: 'silent',
      PACER_HOME: work,
    };
    mkdirSync(uploads);
    expect((await run(['db', 'seed', '--demo'])).code).toBe(0);
    // A similar-name pair, made as an edit makes it (a small write looks for similar names through the trigrams), and
    // an import batch's similar names, which pair only when a rebuild runs (or a record is written again).
    const now = '2026-11-28 10:00:00.000';
    const brand = (brandName: string) => ({ brandName, createdAt: now, updatedAt: now });
    await withTransaction({ db: source.db }, (trx) =>
      insertRecordRows(trx, 'brand', [brand('Stridewell Running'), brand('Stridewel Runing')]),
    );
    await withTransaction({ db: source.db }, (trx) =>
      insertRecordRows(
        trx,
        'brand',
        Array.from({ length: 60 }, (_, i) => brand(`Imported Harbour Outfitters ${i}`)),
      ),
    );
    // Two files of records and one kept by Recently deleted, on local disk.
    for (const size of [5000, 120_000, 10]) {
      const key = `${randomUUID()}.png`;
      files.set(key, randomBytes(size));
      writeFileSync(path.join(uploads, key), files.get(key)!, { flag: 'w' });
    }
    const [a, b, trashed] = [...files.keys()];
    await insertFileRow(source.db, a!, 5000);
    await insertFileRow(source.db, b!, 120_000);
    await insertTrashedFile(source.db, trashed!);
    // Bytes no row names are not part of a backup.
    writeFileSync(path.join(uploads, `${randomUUID()}.png`), 'orphan');
  }, 120_000);
  afterAll(async () => {
    await source?.destroy();
    rmSync(work, { recursive: true, force: true });
  });

  let archive: string;
  let manifest: Manifest;

  it('writes one archive with every table part, the named files and a manifest, and verifies it', async () => {
    const made = await run(['db', 'backup', '--json']);
    expect(made.code, made.stderr).toBe(0);
    const result = JSON.parse(made.stdout) as { file: string; files: number; tables: Record<string, number> };
    archive = result.file;
    expect(path.dirname(archive)).toBe(path.join(work, 'data', 'backups'));
    expect(result.files).toBe(3);
    expect(readdirSync(path.dirname(archive)).filter((name) => name.startsWith('.'))).toEqual([]);
    const parts = await partsOf(archive);
    manifest = JSON.parse(parts.get('manifest.json')!.toString()) as Manifest;
    expect(manifest).toMatchObject({ format: 'pacer-backup', dbKind: testDialect, pacerVersion: expect.any(String) as string });
    expect(manifest.latestMigration).toBe(manifest.migrations.at(-1));
    expect(manifest.tables.events).toBeGreaterThan(0);
    expect(rowsOf(parts.get('db/events.ndjson')!)).toHaveLength(manifest.tables.events!);
    for (const [key, bytes] of files) {
      expect(sha(parts.get(`files/${key}`)!)).toBe(sha(bytes));
      expect(manifest.parts[`files/${key}`]!.sha256).toBe(sha(bytes));
    }
    expect([...parts.keys()].filter((name) => name.startsWith('files/'))).toHaveLength(3);
    // Derived data is rebuilt on restore, never archived.
    expect(parts.has('db/record_search_docs.ndjson')).toBe(false);

    const verified = await run(['db', 'verify', archive, '--json']);
    expect(verified.code, verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, parts: parts.size });
  });

  // A restore into MariaDB replays every migration (about 13 s on a loaded 2-core machine) before it loads a row.
  it('restores into an empty database and another file store with equal rows, files and search', async () => {
    const target = await createTestDatabase({ migrate: false });
    const targetUploads = path.join(work, 'restored-uploads');
    try {
      const env = { ...base, DATABASE_URL: target.url, UPLOAD_DIR: targetUploads };
      const restored = await run(['db', 'restore', archive, '--yes', '--json'], env);
      expect(restored.code, restored.stderr).toBe(0);
      const tables = Object.keys(manifest.tables);
      expect(await tableCounts(target.db, tables)).toEqual(await tableCounts(source.db, tables));
      expect(await tableCounts(target.db, ['record_search_docs', 'record_counts'])).toEqual(
        await tableCounts(source.db, ['record_search_docs', 'record_counts']),
      );
      for (const [key, bytes] of files) expect(sha(readFileSync(path.join(targetUploads, key)))).toBe(sha(bytes));
      const events = await target.db('events').orderBy('id').select('*');
      expect(events).toEqual(await source.db('events').orderBy('id').select('*'));
      // The duplicate keys and pairs are the archive's (not rebuilt: same rules version): the edit's similar names
      // pair, the import batch's do not yet.
      expect(await pairsOf(target.db)).toEqual(await pairsOf(source.db));
      expect(await stridewellPair(target.db)).toMatchObject({ reasons: expect.stringMatching(/^similar name/) as string });
      expect(await target.db('derived_data_versions').orderBy('name').select('*')).toEqual(
        await source.db('derived_data_versions').orderBy('name').select('*'),
      );
    } finally {
      await target.destroy();
    }
  }, 120_000);

  it('rebuilds the duplicate pairs on restore when the archive has another rules version (or none)', async () => {
    const parts = await partsOf(archive);
    const changed: Manifest = structuredClone(manifest);
    const setPart = (table: string, header: string, rows: string[]) => {
      const bytes = Buffer.from([header, ...rows].map((line) => `${line}\n`).join(''));
      parts.set(`db/${table}.ndjson`, bytes);
      changed.parts[`db/${table}.ndjson`] = { sha256: sha(bytes), bytes: bytes.length };
      changed.tables[table] = rows.length;
    };
    // As an archive of a release whose rules differ: its pairs are not this release's, its version row neither.
    const versions = parts.get('db/derived_data_versions.ndjson')!.toString('utf8').trim().split('\n');
    const columns = (JSON.parse(versions[0]!) as { columns: string[] }).columns;
    const olderRules = versions.slice(1).map((line) => {
      const row = JSON.parse(line) as unknown[];
      return JSON.stringify(row[columns.indexOf('name')] === 'duplicates' ? row.with(columns.indexOf('version'), 'older-rules') : row);
    });
    setPart('derived_data_versions', versions[0]!, olderRules);
    setPart('duplicate_pairs', parts.get('db/duplicate_pairs.ndjson')!.toString('utf8').split('\n')[0]!, []);
    parts.set('manifest.json', Buffer.from(JSON.stringify(changed)));
    const file = path.join(work, 'older-rules.tar.gz');
    await writeArchive(file, parts);

    const target = await createTestDatabase({ migrate: false });
    try {
      const restored = await run(['db', 'restore', file, '--yes'], {
        ...base,
        DATABASE_URL: target.url,
        UPLOAD_DIR: path.join(work, 'r2'),
      });
      expect(restored.code, restored.stderr).toBe(0);
      expect(await stridewellPair(target.db)).toEqual(await stridewellPair(source.db));
      // The import batch's similar names pair now, as on any rebuild.
      expect((await pairsOf(target.db)).length).toBeGreaterThan((await pairsOf(source.db)).length);
      expect(await target.db('derived_data_versions').where({ name: 'duplicates' }).first('version')).toEqual(
        await source.db('derived_data_versions').where({ name: 'duplicates' }).first('version'),
      );
    } finally {
      await target.destroy();
    }
  }, 120_000);

  it('keeps the newest N archives with --keep, never other files', async () => {
    const dir = path.join(work, 'kept');
    const out = (name: string) => ['db', 'backup', '--out', path.join(dir, name)];
    expect((await run(out('pacer-backup-20200101-000000.tar.gz'))).code).toBe(0);
    expect((await run(out('pacer-backup-20200102-000000.tar.gz'))).code).toBe(0);
    writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    expect((await run(['db', 'backup', '--out', path.join(dir, 'pacer-backup-20200103-000000.tar.gz'), '--keep', '2'])).code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['notes.txt', 'pacer-backup-20200102-000000.tar.gz', 'pacer-backup-20200103-000000.tar.gz']);
    expect((await run(['db', 'backup', '--keep', '0'])).code).toBe(2);
  });

  it('takes a write made during the backup either fully or not at all', async () => {
    const config = testConfig({ DATABASE_URL: source.url, UPLOAD_DIR: uploads });
    const ctx = { db: source.db, config, log: pino({ level: 'silent' }), clock: { now: () => new Date() } };
    let writing: Promise<void> | undefined;
    const result = await createBackup(ctx, {
      dir: path.join(work, 'during'),
      // Half-way through the tables, a brand and its contact are written in one transaction, and committed before
      // the remaining tables are read.
      onProgress: async ({ phase, done }) => {
        if (phase !== 'Reading the database' || done !== 3 || writing) return;
        writing = (async () => {
          await source.db.transaction(async (trx) => {
            const [id] = (await trx('brands').insert({
              brandName: 'Written during backup',
              createdAt: '2026-01-01 00:00:00.000',
              updatedAt: '2026-01-01 00:00:00.000',
            })) as number[];
            await trx('contacts').insert({
              entityType: 'brand',
              entityId: Number(id),
              firstName: 'During',
              lastName: 'Backup',
              email: 'during@example.org',
              isPrimary: 1,
              createdAt: '2026-01-01 00:00:00.000',
              updatedAt: '2026-01-01 00:00:00.000',
            });
          });
        })();
        await writing;
      },
    });
    const parts = await partsOf(result.file);
    const brandIn = parts.get('db/brands.ndjson')!.toString().includes('Written during backup');
    const contactIn = parts.get('db/contacts.ndjson')!.toString().includes('during@example.org');
    expect(writing).toBeDefined();
    expect(brandIn).toBe(contactIn);
    // The snapshot was taken before the write: it is out, though contacts were read after it committed.
    expect(contactIn).toBe(false);
  });

  it('refuses an altered part, naming it, and changes nothing', async () => {
    const parts = await partsOf(archive);
    const key = [...files.keys()][1]!;
    const altered = Buffer.from(parts.get(`files/${key}`)!);
    altered[100] = altered[100]! ^ 0xff;
    parts.set(`files/${key}`, altered);
    const bad = path.join(work, 'altered.tar.gz');
    await writeArchive(bad, parts);
    const verified = await run(['db', 'verify', bad]);
    expect(verified.code).toBe(1);
    expect(verified.stderr).toContain(`files/${key}: its checksum does not match the manifest`);

    await source
      .db('brands')
      .insert({ brandName: 'After the backup', createdAt: '2026-01-01 00:00:00.000', updatedAt: '2026-01-01 00:00:00.000' });
    const before = await tableCounts(source.db, Object.keys(manifest.tables));
    const restored = await run(['db', 'restore', bad, '--yes']);
    expect(restored.code).toBe(1);
    expect(restored.stderr).toContain(`files/${key}`);
    expect(await tableCounts(source.db, Object.keys(manifest.tables))).toEqual(before);
  });

  it('refuses a cut-off archive, naming the part it ends in', async () => {
    const raw = gunzipSync(readFileSync(archive));
    const events = raw.indexOf('db/events.ndjson');
    const cut = path.join(work, 'cut.tar.gz');
    writeFileSync(cut, gzipSync(raw.subarray(0, events + 512 + 40)));
    const verified = await run(['db', 'verify', cut, '--json']);
    expect(verified.code).toBe(1);
    const report = JSON.parse(verified.stdout) as { ok: boolean; problems: string[] };
    expect(report.ok).toBe(false);
    expect(report.problems[0]).toMatch(/^db\/events\.ndjson: the archive ends in the middle of this part/);
    // Cut inside the compressed bytes too.
    const compressed = readFileSync(archive);
    writeFileSync(cut, compressed.subarray(0, Math.floor(compressed.length / 2)));
    const half = await run(['db', 'verify', cut]);
    expect(half.code).toBe(1);
    expect(half.stderr).toMatch(/- (db|files)\/[^:]+: /);
  });

  it('refuses an archive made at a migration this release does not know', async () => {
    const parts = await partsOf(archive);
    const newer = {
      ...manifest,
      migrations: [...manifest.migrations, '29991231000000_from_the_future'],
      latestMigration: '29991231000000_from_the_future',
    };
    parts.set('manifest.json', Buffer.from(JSON.stringify(newer)));
    const file = path.join(work, 'newer.tar.gz');
    await writeArchive(file, parts);
    const restored = await run(['db', 'restore', file, '--yes']);
    expect(restored.code).toBe(1);
    expect(restored.stderr).toContain('29991231000000_from_the_future, which this release');
  });

  it('the real pacer refuses a restore without --yes off a terminal (exit 2), changing nothing', async () => {
    const before = await tableCounts(source.db, ['brands']);
    await source.db('brands').where({ brandName: 'After the backup' }).delete();
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli/index.ts', 'db', 'restore', archive], {
      env: { ...process.env, ...base },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, stderr).toBe(2);
    expect(stderr).toContain('pass --yes');
    expect((await tableCounts(source.db, ['brands'])).brands).toBe(before.brands! - 1);
  }, 60_000);
});

describe('pacer db backup and restore with files on S3', () => {
  let source: TestDatabase;
  let s3: TestS3;
  let target: TestS3;
  let work: string;

  beforeAll(async () => {
    source = await createTestDatabase();
    s3 = await startTestS3();
    target = await startTestS3('pacer-restored');
    work = mkdtempSync(path.join(tmpdir(), 'pacer-backup-s3-'));
  });
  afterAll(async () => {
    await source?.destroy();
    await s3?.close();
    await target?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('copies the bucket files a row names into the archive and back into another bucket', async () => {
    const bytes = randomBytes(70_000);
    const key = `${randomUUID()}.pdf`;
    await s3.put(key, bytes);
    await insertFileRow(source.db, key, bytes.length);
    const env = { NODE_ENV: 'test', DATABASE_URL: source.url, UPLOAD_DIR: path.join(work, 'up'), LOG_LEVEL: 'silent', PACER_HOME: work };
    const made = await runCli(['db', 'backup', '--out', path.join(work, 'b.tar.gz')], fakeIO({ ...env, ...s3.env }).io);
    expect(made).toBe(0);
    const restoredDb = await createTestDatabase({ migrate: false });
    try {
      const io = fakeIO({ ...env, ...target.env, DATABASE_URL: restoredDb.url });
      expect(await runCli(['db', 'restore', path.join(work, 'b.tar.gz'), '--yes'], io.io), io.stderr()).toBe(0);
      expect(sha(await target.get(key))).toBe(sha(bytes));
      expect(await restoredDb.db('files').pluck('filePath')).toEqual([key]);
    } finally {
      await restoredDb.destroy();
    }
  });
});

describe.runIf(testDialect === 'mysql')('restore across database kinds', () => {
  it('moves a SQLite backup into MariaDB and back with equal rows', async () => {
    const sqlite = await sqliteDatabase();
    const maria = await createTestDatabase({ migrate: false });
    const back = await sqliteDatabase();
    const work = mkdtempSync(path.join(tmpdir(), 'pacer-backup-cross-'));
    const env = (url: string) => ({
      NODE_ENV: 'test',
      DATABASE_URL: url,
      UPLOAD_DIR: path.join(work, 'up'),
      LOG_LEVEL: 'silent',
      PACER_HOME: work,
    });
    const run = async (args: string[], url: string) => {
      const io = fakeIO(env(url));
      const code = await runCli(args, io.io);
      expect(code, io.stderr()).toBe(0);
    };
    try {
      await run(['db', 'seed', '--demo'], sqlite.url);
      await run(['db', 'backup', '--out', path.join(work, 'from-sqlite.tar.gz')], sqlite.url);
      await run(['db', 'restore', path.join(work, 'from-sqlite.tar.gz'), '--yes'], maria.url);
      await run(['db', 'backup', '--out', path.join(work, 'from-maria.tar.gz')], maria.url);
      await run(['db', 'restore', path.join(work, 'from-maria.tar.gz'), '--yes'], back.url);
      const tables = Object.keys(
        (JSON.parse((await partsOf(path.join(work, 'from-sqlite.tar.gz'))).get('manifest.json')!.toString()) as Manifest).tables,
      );
      const expected = await tableCounts(sqlite.db, [...tables, 'record_search_docs', 'record_counts']);
      expect(await tableCounts(maria.db, [...tables, 'record_search_docs', 'record_counts'])).toEqual(expected);
      expect(await tableCounts(back.db, [...tables, 'record_search_docs', 'record_counts'])).toEqual(expected);
      expect(await back.db('contacts').orderBy('id').select('*')).toEqual(await sqlite.db('contacts').orderBy('id').select('*'));
    } finally {
      await sqlite.destroy();
      await maria.destroy();
      await back.destroy();
      rmSync(work, { recursive: true, force: true });
    }
  }, 120_000);
});
