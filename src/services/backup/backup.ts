import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { migrationStatus } from '@db/migrate.js';
import { PACER_VERSION } from '@shared/release.js';
import type { AppContext } from '../context.js';
import { openStorage, type FileStorage } from '../files/storage.js';
import { ARCHIVE_NAME, archiveNameFor, filePart, FORMAT, FORMAT_VERSION, MANIFEST, type Manifest, type PartInfo } from './format.js';
import { takeSnapshot, type SnapshotProgress } from './snapshot.js';
import { tarStream, type TarSource } from './tar.js';

export interface BackupOptions {
  /** The archive to write; by default a new name in `dir`. */
  out?: string;
  /** The folder of archives (BACKUP_DIR); used when `out` is not given. */
  dir: string;
  /** Keep this many archives in the folder (the newest, this one included), removing older ones. */
  keep?: number;
  onProgress?: SnapshotProgress;
  /** Told the temporary files and folders before any is written (removed when the backup ends, however it ends). */
  onTemporaryPaths?: (paths: string[]) => void;
}

export interface BackupResult {
  file: string;
  name: string;
  bytes: number;
  createdAt: string;
  dbKind: Manifest['dbKind'];
  latestMigration: string;
  tables: Record<string, number>;
  files: number;
  missingFiles: string[];
  removed: string[];
}

/** A stored file's bytes as a part, hashed as they stream into the archive. */
function filePartSource(storage: FileStorage, key: string, size: number, parts: Record<string, PartInfo>): TarSource {
  const name = filePart(key);
  async function* body() {
    const hash = createHash('sha256');
    for await (const chunk of storage.read(key) as AsyncIterable<Buffer>) {
      hash.update(chunk);
      yield chunk;
    }
    parts[name] = { sha256: hash.digest('hex'), bytes: size };
  }
  return { name, size, body: body() };
}

/**
 * `pacer db backup` and the backup job: a consistent snapshot of the database and the stored files its rows name,
 * in one .tar.gz written under a temporary name and renamed when complete. Streams throughout: a table goes to a
 * temporary file row by row, a stored file goes from the store into the archive chunk by chunk.
 */
export async function createBackup(ctx: AppContext, options: BackupOptions): Promise<BackupResult> {
  const createdAt = ctx.clock.now();
  const file = path.resolve(options.out ?? (await freeName(options.dir, archiveNameFor(createdAt))));
  const folder = path.dirname(file);
  await mkdir(folder, { recursive: true });
  const partial = path.join(folder, `.${path.basename(file)}.${randomBytes(4).toString('hex')}.partial`);
  const workDir = await mkdtemp(path.join(folder, '.pacer-backup-work-'));
  options.onTemporaryPaths?.([partial, workDir]);
  try {
    const snapshot = await takeSnapshot(ctx.db, workDir, options.onProgress);
    const storage = await openStorage(ctx.config, ctx.log);
    const parts: Record<string, PartInfo> = {};
    for (const table of snapshot.tables) parts[table.part] = { sha256: table.sha256, bytes: table.bytes };
    const sizes: Array<{ key: string; size: number }> = [];
    const missingFiles: string[] = [];
    for (const key of snapshot.fileKeys) {
      const size = await storage.size(key).catch(() => null);
      if (size === null) missingFiles.push(key);
      else sizes.push({ key, size });
    }
    if (missingFiles.length) ctx.log.warn({ missing: missingFiles.length }, 'backup: some stored files named by rows are missing');
    const manifest = (): Manifest => ({
      format: FORMAT,
      formatVersion: FORMAT_VERSION,
      pacerVersion: PACER_VERSION,
      latestMigration: snapshot.migrations.at(-1) ?? '',
      migrations: snapshot.migrations,
      dbKind: snapshot.dbKind,
      createdAt: createdAt.toISOString(),
      tables: Object.fromEntries(snapshot.tables.map((table) => [table.table, table.rows])),
      parts,
      missingFiles,
    });
    const progress = options.onProgress;
    async function* sources(): AsyncGenerator<TarSource> {
      for (const table of snapshot.tables) yield { name: table.part, size: table.bytes, body: createReadStream(table.file) };
      for (const [index, { key, size }] of sizes.entries()) {
        await progress?.({ phase: 'Copying stored files', done: index, total: sizes.length });
        yield filePartSource(storage, key, size, parts);
      }
      await progress?.({ phase: 'Copying stored files', done: sizes.length, total: sizes.length });
      // Last: it holds the checksums of the files, known once they went by.
      const text = Buffer.from(`${JSON.stringify(manifest(), null, 2)}\n`);
      yield { name: MANIFEST, size: text.length, body: [text] };
    }
    await pipeline(tarStream(sources(), createdAt), createGzip(), createWriteStream(partial, { mode: 0o600 }));
    await rename(partial, file);
    const removed = options.keep ? await pruneArchives(folder, options.keep, file) : [];
    const done = manifest();
    ctx.log.info({ file, tables: snapshot.tables.length, files: sizes.length }, 'backup written');
    return {
      file,
      name: path.basename(file),
      bytes: (await stat(file)).size,
      createdAt: done.createdAt,
      dbKind: done.dbKind,
      latestMigration: done.latestMigration,
      tables: done.tables,
      files: sizes.length,
      missingFiles,
      removed,
    };
  } finally {
    await rm(partial, { force: true });
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * MIGRATE_ON_START with BACKUP_BEFORE_MIGRATE=true: an archive in BACKUP_DIR before pending migrations are applied
 * (none when there is nothing to apply, or no data yet). A failed backup stops the start: the schema is not touched.
 */
export async function backupBeforeMigrating(ctx: AppContext): Promise<BackupResult | null> {
  const { applied, pending } = await migrationStatus(ctx.db);
  if (pending.length === 0 || applied.length === 0) return null;
  ctx.log.info({ pending: pending.length }, 'BACKUP_BEFORE_MIGRATE: backing up before migrating');
  return createBackup(ctx, { dir: ctx.config.backup.dir, keep: ctx.config.backup.keep });
}

/** `name` in `folder`, or `name-2`, `-3`… when a backup of the same second is there already. */
async function freeName(folder: string, name: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = path.join(folder, n === 1 ? name : name.replace('.tar.gz', `-${n}.tar.gz`));
    if (!(await stat(candidate).catch(() => null))) return candidate;
  }
}

/** The archives this release names in `folder`, newest first. */
export async function listArchives(folder: string): Promise<Array<{ name: string; file: string; bytes: number; modifiedAt: Date }>> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const archives = await Promise.all(
    names
      .filter((name) => ARCHIVE_NAME.test(name))
      .map(async (name) => {
        const file = path.join(folder, name);
        const info = await stat(file);
        return { name, file, bytes: info.size, modifiedAt: info.mtime };
      }),
  );
  // pacer-backup-<stamp>.tar.gz, then -2, -3… for later ones of the same second.
  const order = (name: string) => {
    const [, stamp = '', n = '1'] = /^pacer-backup-(\d{8}-\d{6})(?:-(\d+))?/.exec(name) ?? [];
    return `${stamp}-${n.padStart(6, '0')}`;
  };
  return archives.sort((a, b) => (order(a.name) < order(b.name) ? 1 : order(a.name) > order(b.name) ? -1 : 0));
}

/** Removes all but the newest `keep` archives named by this release (never another file, never `justMade`). */
async function pruneArchives(folder: string, keep: number, justMade: string): Promise<string[]> {
  const archives = (await listArchives(folder)).filter((archive) => archive.file !== justMade);
  const removed = archives.slice(Math.max(0, keep - 1));
  for (const archive of removed) await rm(archive.file, { force: true });
  return removed.map((archive) => archive.name);
}
