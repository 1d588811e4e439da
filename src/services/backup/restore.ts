import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { Knex } from 'knex';
import { applyMigrationsThrough, knownMigrationNames } from '@db/migrate.js';
import { insertRowsInBulk, type BulkRow, type BulkValue } from '@db/bulk-rows.js';
import { createDatabase, dialectOfDb } from '@db/knex.js';
import { withTransaction } from '@db/transaction.js';
import { PACER_VERSION } from '@shared/release.js';
import type { AppContext } from '../context.js';
import { AppError } from '../errors.js';
import { assertStorageKey, openStorage } from '../files/storage.js';
import { VERSION_ROW as SEARCH_INDEX_VERSION } from '../records/derived.js';
import { migrateToLatest } from '../schema.js';
import { FORMAT, FORMAT_VERSION, fromNeutral, lines, MANIFEST, type Manifest } from './format.js';
import type { SnapshotProgress } from './snapshot.js';
import { openSqlite, sqliteFileOf } from './sqlite.js';
import { DamagedArchiveError, readTar, type TarEntry } from './tar.js';

export interface VerifyReport {
  file: string;
  ok: boolean;
  /** What is wrong, each naming the part it is about. */
  problems: string[];
  manifest: Manifest | null;
  /** Parts read (the manifest included). */
  parts: number;
}

const MANIFEST_MAX_BYTES = 64 << 20;

/** The archive's parts in order, read from the file (gunzipped); progress counts the compressed bytes read. */
async function* archiveEntries(file: string, onBytes?: (read: number) => void): AsyncGenerator<TarEntry> {
  const source = createReadStream(file);
  let read = 0;
  if (onBytes) source.on('data', (chunk) => onBytes((read += chunk.length)));
  const gunzip = createGunzip();
  source.on('error', (error) => gunzip.destroy(error));
  try {
    yield* readTar(source.pipe(gunzip));
  } finally {
    source.destroy();
    gunzip.destroy();
  }
}

/** What a table part says about itself while it is read: its columns, and that every row is one of the right length. */
async function readTablePart(name: string, body: AsyncIterable<Buffer>, row?: (values: unknown[], columns: string[]) => Promise<void>) {
  let columns: string[] | null = null;
  let rows = 0;
  for await (const line of lines(body)) {
    if (!line) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new Error(`${name}: line ${rows + 2} is not readable`);
    }
    if (!columns) {
      const header = parsed as { columns?: unknown };
      if (!Array.isArray(header.columns)) throw new Error(`${name}: the first line does not name the columns`);
      columns = header.columns.map(String);
      continue;
    }
    if (!Array.isArray(parsed) || parsed.length !== columns.length) throw new Error(`${name}: row ${rows + 1} does not match the columns`);
    rows++;
    await row?.(parsed, columns);
  }
  if (!columns) throw new Error(`${name}: empty`);
  return { columns, rows };
}

/**
 * `pacer db verify` and the first half of a restore: reads the whole archive without writing anything, checking
 * every part's SHA-256 and size against the manifest, that every row reads, and that this release knows the
 * archive's migrations.
 */
export async function verifyBackup(file: string, onProgress?: SnapshotProgress): Promise<VerifyReport> {
  const problems: string[] = [];
  const seen = new Map<string, { sha256: string; bytes: number; rows?: number }>();
  let manifestText = '';
  let total = 0;
  try {
    total = (await stat(file)).size;
  } catch {
    return { file, ok: false, problems: [`${file}: no such file`], manifest: null, parts: 0 };
  }
  try {
    for await (const entry of archiveEntries(file, (read) => void onProgress?.({ phase: 'Checking the archive', done: read, total }))) {
      const hash = createHash('sha256');
      let bytes = 0;
      const counted = (async function* () {
        for await (const chunk of entry.body) {
          hash.update(chunk);
          bytes += chunk.length;
          yield chunk as Buffer;
        }
      })();
      let rows: number | undefined;
      if (entry.name === MANIFEST) {
        for await (const chunk of counted) {
          if (manifestText.length + chunk.length > MANIFEST_MAX_BYTES) throw new Error(`${MANIFEST}: too large`);
          manifestText += chunk.toString('utf8');
        }
      } else if (entry.name.startsWith('db/')) {
        try {
          rows = (await readTablePart(entry.name, counted)).rows;
        } catch (error) {
          if (error instanceof DamagedArchiveError) throw error;
          problems.push((error as Error).message);
          for await (const _chunk of counted);
        }
      } else {
        for await (const _chunk of counted);
      }
      seen.set(entry.name, { sha256: hash.digest('hex'), bytes, rows });
    }
  } catch (error) {
    const message = error instanceof DamagedArchiveError ? error.message : `the archive cannot be read (${(error as Error).message})`;
    problems.push(message);
  }

  let manifest: Manifest | null = null;
  if (!seen.has(MANIFEST)) {
    problems.push(`${MANIFEST}: missing (the archive is cut off, or not a Pacer backup)`);
  } else {
    try {
      manifest = JSON.parse(manifestText) as Manifest;
    } catch {
      problems.push(`${MANIFEST}: not readable`);
    }
  }
  if (manifest) {
    if (manifest.format !== FORMAT) problems.push(`${MANIFEST}: not a Pacer backup`);
    else if (manifest.formatVersion > FORMAT_VERSION)
      problems.push(`${MANIFEST}: made by a newer release (format ${manifest.formatVersion}); this is Pacer ${PACER_VERSION}`);
    for (const [name, expected] of Object.entries(manifest.parts ?? {})) {
      const found = seen.get(name);
      if (!found) problems.push(`${name}: missing from the archive`);
      else if (found.sha256 !== expected.sha256 || found.bytes !== expected.bytes)
        problems.push(`${name}: its checksum does not match the manifest (the part was altered or damaged)`);
    }
    for (const name of seen.keys())
      if (name !== MANIFEST && !Object.hasOwn(manifest.parts ?? {}, name)) problems.push(`${name}: not listed in the manifest`);
    for (const [table, rows] of Object.entries(manifest.tables ?? {})) {
      const found = seen.get(`db/${table}.ndjson`)?.rows;
      if (found !== undefined && found !== rows) problems.push(`db/${table}.ndjson: ${found} rows, the manifest says ${rows}`);
    }
    const known = await knownMigrationNames();
    const migrations = Array.isArray(manifest.migrations) ? manifest.migrations : [];
    const unknown = migrations.filter((name) => !known.includes(name));
    if (unknown.length)
      problems.push(
        `${MANIFEST}: the archive's database is at migration ${manifest.latestMigration}, which this release (Pacer ${PACER_VERSION}) does not know: restore it with the release that made it (Pacer ${manifest.pacerVersion}) or a newer one`,
      );
    else if (migrations.some((name, index) => known[index] !== name))
      problems.push(`${MANIFEST}: the archive's migrations are not in this release's order`);
  }
  return { file, ok: problems.length === 0, problems, manifest, parts: seen.size };
}

/** The archive refused: nothing was changed. */
const refused = (report: VerifyReport) =>
  new AppError(
    422,
    'bad_archive',
    `The archive was refused and nothing was changed: ${report.problems[0]}`,
    report.problems.map((message) => ({ path: '', message })),
  );

/** A database being built beside the live one, and how it replaces it. */
interface Staging {
  db: Knex;
  /** Makes it the live database, whole or not at all. */
  swap(): Promise<void>;
  discard(): Promise<void>;
}

/** SQLite: a new file beside the live one, copied over it at the end with the backup API (one write transaction). */
function sqliteStaging(live: Knex): Staging {
  const liveFile = sqliteFileOf(live);
  const file = `${liveFile}.restoring-${randomBytes(4).toString('hex')}`;
  const db = createDatabase({ url: `sqlite:${file}` });
  const remove = () => Promise.all(['', '-wal', '-shm'].map((suffix) => rm(`${file}${suffix}`, { force: true })));
  return {
    db,
    async swap() {
      await db.destroy();
      const staged = openSqlite(file, { fileMustExist: true });
      try {
        await staged.backup(liveFile);
      } finally {
        staged.close();
      }
      await remove();
    },
    async discard() {
      await db.destroy();
      await remove();
    },
  };
}

/**
 * MySQL/MariaDB: a database of its own beside the live one (`<name>_restore`), whose tables then replace the live
 * ones in one RENAME TABLE (atomic); the replaced tables go to `<name>_replaced` and are dropped.
 */
async function mysqlStaging(live: Knex): Promise<Staging> {
  const [rows] = (await live.raw('SELECT DATABASE() AS name')) as [Array<{ name: string | null }>];
  const current = rows[0]?.name;
  if (!current) throw new Error('The database URL names no database');
  const staging = `${current.slice(0, 50)}_restore`;
  const replaced = `${current.slice(0, 50)}_replaced`;
  await live.raw('DROP DATABASE IF EXISTS ??', [staging]);
  await live.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [staging]);
  const connection = live.client.config.connection as Knex.MySql2ConnectionConfig;
  const url = new URL('mysql://localhost');
  url.hostname = connection.host ?? '127.0.0.1';
  url.port = String(connection.port ?? 3306);
  url.username = encodeURIComponent(connection.user ?? '');
  url.password = encodeURIComponent(connection.password ?? '');
  url.pathname = `/${staging}`;
  const db = createDatabase({ url: url.toString(), poolMax: 1 });
  const tablesOf = async (schema: string) =>
    (
      (await live.raw("SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'", [
        schema,
      ])) as [Array<{ name: string }>]
    )[0].map((row) => row.name);
  return {
    db,
    async swap() {
      await db.destroy();
      await live.raw('DROP DATABASE IF EXISTS ??', [replaced]);
      await live.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [replaced]);
      const moves: string[] = [];
      for (const table of await tablesOf(current)) moves.push(`${current}.${table}`, `${replaced}.${table}`);
      for (const table of await tablesOf(staging)) moves.push(`${staging}.${table}`, `${current}.${table}`);
      const pairs = Array.from({ length: moves.length / 2 }, () => '?? TO ??').join(', ');
      await live.raw('RENAME TABLE ' + pairs, moves);
      await live.raw('DROP DATABASE IF EXISTS ??', [replaced]);
      await live.raw('DROP DATABASE IF EXISTS ??', [staging]);
    },
    async discard() {
      await db.destroy();
      await live.raw('DROP DATABASE IF EXISTS ??', [staging]);
    },
  };
}

/** Rows per bulk write of a restored table: the next batch is read while this one is written. */
const LOAD_BATCH = 5_000;

/** An archived value as the bulk writer takes it (src/db/bulk-rows.ts). */
function bulkValue(value: unknown): BulkValue {
  const stored = fromNeutral(value);
  if (typeof stored === 'boolean') return stored ? 1 : 0;
  if (stored === null || typeof stored === 'string' || typeof stored === 'number' || Buffer.isBuffer(stored)) return stored;
  return JSON.stringify(stored);
}

/**
 * Loads a table part's rows into the staged database in one transaction, the fastest way each database takes many
 * rows (LOAD DATA on MariaDB, a prepared multi-row INSERT on SQLite): inserts of 200 rows as objects made most of a
 * restore's time on MariaDB. Foreign keys are not checked meanwhile: the parts come in name order, not in the
 * order the keys need, and the archive was a consistent database when it was made.
 */
async function loadTable(db: Knex, entry: TarEntry, table: string): Promise<number> {
  const sqlite = dialectOfDb(db) === 'sqlite';
  return withTransaction({ db }, async (trx) => {
    if (!sqlite) await trx.raw('SET FOREIGN_KEY_CHECKS = 0');
    await trx(table).delete();
    let batch: BulkRow[] = [];
    let writing: Promise<void> = Promise.resolve();
    let columnsOf: string[] = [];
    const flush = async () => {
      await writing;
      const rows = batch;
      batch = [];
      if (rows.length === 0) return;
      writing = insertRowsInBulk(trx, table, columnsOf, rows, { count: rows.length });
      // Awaited at the next flush or at the end; until then a failure must not go unhandled.
      writing.catch(() => undefined);
    };
    const { rows } = await readTablePart(entry.name, entry.body, async (values, columns) => {
      columnsOf = columns;
      batch.push(values.map(bulkValue));
      if (batch.length >= LOAD_BATCH) await flush();
    });
    await flush();
    await writing;
    return rows;
  });
}

export interface RestoreResult {
  file: string;
  dbKind: Manifest['dbKind'];
  fromDbKind: Manifest['dbKind'];
  archiveMigration: string;
  tables: Record<string, number>;
  files: { written: number; alreadyThere: number };
  migrationsApplied: string[];
}

/**
 * `pacer db restore`: checks the whole archive first (nothing is touched when a part is bad), builds the archive's
 * database beside the live one (its migrations replayed to the archive's level, its rows loaded, the migrations this
 * release adds applied, the derived data rebuilt), puts the stored files back, then replaces the live database in
 * one step. A failure before that step leaves the live database as it was.
 */
export async function restoreBackup(
  ctx: AppContext,
  file: string,
  options: { verified?: VerifyReport; onProgress?: SnapshotProgress } = {},
): Promise<RestoreResult> {
  const { onProgress } = options;
  const report = options.verified ?? (await verifyBackup(file, onProgress));
  if (!report.ok || !report.manifest) throw refused(report);
  const manifest = report.manifest;
  const staging = dialectOfDb(ctx.db) === 'sqlite' ? sqliteStaging(ctx.db) : await mysqlStaging(ctx.db);
  const storage = await openStorage(ctx.config, ctx.log);
  const files = { written: 0, alreadyThere: 0 };
  const tables: Record<string, number> = {};
  let swapped = false;
  // Milliseconds per phase, logged in seconds at the end: where a restore's time goes (docs/performance.md, Backups).
  const timings: Record<string, number> = {};
  let phaseStart = performance.now();
  const lap = (phase: string) => {
    const now = performance.now();
    timings[phase] = (timings[phase] ?? 0) + (now - phaseStart);
    phaseStart = now;
  };
  try {
    if (manifest.latestMigration) await applyMigrationsThrough(staging.db, manifest.latestMigration);
    lap('schema');
    const sqlite = dialectOfDb(staging.db) === 'sqlite';
    if (sqlite) await staging.db.raw('PRAGMA foreign_keys = OFF');
    const partCount = Object.keys(manifest.parts).length;
    let done = 0;
    for await (const entry of archiveEntries(file)) {
      await onProgress?.({ phase: 'Restoring', done: done++, total: partCount });
      if (entry.name.startsWith('db/')) {
        const table = entry.name.slice('db/'.length, -'.ndjson'.length);
        if (!(await staging.db.schema.hasTable(table)))
          throw new Error(`${entry.name}: no such table at migration ${manifest.latestMigration}`);
        tables[table] = await loadTable(staging.db, entry, table);
        lap('rows');
      } else if (entry.name.startsWith('files/')) {
        const key = entry.name.slice('files/'.length);
        assertStorageKey(key);
        if ((await storage.size(key)) === entry.size) files.alreadyThere++;
        else {
          await storage.write(key, Readable.from(entry.body), entry.size);
          files.written++;
        }
        lap('files');
      }
    }
    await onProgress?.({ phase: 'Restoring', done: partCount, total: partCount });
    if (sqlite) await staging.db.raw('PRAGMA foreign_keys = ON');
    // The search index and counts are not in the archive: rebuilt from the restored rows by the next step, as is
    // derived data whose rules version is not this release's (or not in the archive: one made before it was).
    if (await staging.db.schema.hasTable('derived_data_versions'))
      await staging.db('derived_data_versions').where('name', SEARCH_INDEX_VERSION).delete();
    await onProgress?.({ phase: 'Migrating and rebuilding the search index', done: 0, total: 1 });
    const { applied } = await migrateToLatest(staging.db, { log: ctx.log });
    await onProgress?.({ phase: 'Migrating and rebuilding the search index', done: 1, total: 1 });
    lap('migrations and derived data');
    await staging.swap();
    swapped = true;
    lap('swap');
    const seconds = Object.fromEntries(Object.entries(timings).map(([phase, ms]) => [phase, Math.round(ms / 100) / 10]));
    ctx.log.info({ file, tables: Object.keys(tables).length, files, seconds }, 'backup restored');
    return {
      file,
      dbKind: dialectOfDb(ctx.db),
      fromDbKind: manifest.dbKind,
      archiveMigration: manifest.latestMigration,
      tables,
      files,
      migrationsApplied: applied,
    };
  } finally {
    if (!swapped) await staging.discard().catch((error: unknown) => ctx.log.warn({ err: error }, 'could not remove the staged restore'));
  }
}
