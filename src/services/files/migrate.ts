import { createHash } from 'node:crypto';
import type { StorageBackend } from '@config/env.js';
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import { storedPathsInTrash } from '../trash/service.js';
import { allStoredPaths } from './queries.js';
import { isStorageKey, openStorage, type FileStorage } from './storage.js';

/** What became of one stored file. */
type CopyOutcome = 'copied' | 'alreadyThere' | 'onlyOnTarget' | 'failed';

export interface MigrateProgress {
  done: number;
  total: number;
  /** The file just handled, as a person reads it ("file 12 (….png)"). */
  file: string;
  outcome: CopyOutcome;
  reason?: string;
}

export interface FilesMigrateReport {
  from: string;
  to: string;
  /** The backend the files went to, and whether STORAGE already names it. */
  target: StorageBackend;
  switched: boolean;
  total: number;
  /** Copied now, then read back and found equal to the source. */
  copied: number;
  /** Already in the target with the same checksum (an earlier run copied them). */
  alreadyThere: number;
  /** Not in the source but in the target (uploaded there after a switch). */
  onlyOnTarget: number;
  failures: Array<{ file: string; reason: string }>;
}

/** Files copied at once: enough to hide a store's latency, few enough for a small machine. */
const COPIES_AT_ONCE = 4;

/**
 * `pacer files migrate --to s3|local`: copies every stored file (those of the files table and those kept in
 * Recently deleted) from the other backend to `to`, and checks each copy by reading it back and comparing its
 * SHA-256 with the source's. Idempotent: a file already in the target with the same checksum is not copied again,
 * one that differs is copied again. It never removes anything from the source and never changes STORAGE: the
 * switch is the administrator's, once this has reported no failure.
 */
export async function migrateStoredFiles(
  ctx: AppContext,
  options: { to: StorageBackend; onProgress?: (progress: MigrateProgress) => void },
): Promise<FilesMigrateReport> {
  if (options.to === 's3' && !ctx.config.storage.s3.bucket) throw badRequest('S3_BUCKET must be set to migrate files to s3');
  const source = await openStorage(ctx.config, ctx.log, options.to === 's3' ? 'local' : 's3');
  const target = await openStorage(ctx.config, ctx.log, options.to);

  const files = await filesToMigrate(ctx);
  const report: FilesMigrateReport = {
    from: source.location,
    to: target.location,
    target: options.to,
    switched: ctx.config.storage.backend === options.to,
    total: files.length,
    copied: 0,
    alreadyThere: 0,
    onlyOnTarget: 0,
    failures: [],
  };
  let next = 0;
  let done = 0;
  const copyNext = async (): Promise<void> => {
    for (let index = next++; index < files.length; index = next++) {
      const { key, label } = files[index]!;
      let outcome: CopyOutcome;
      let reason: string | undefined;
      try {
        outcome = await copyOne(source, target, key);
      } catch (error) {
        outcome = 'failed';
        reason = (error as Error).message;
        report.failures.push({ file: label, reason });
      }
      if (outcome !== 'failed') report[outcome]++;
      options.onProgress?.({ done: ++done, total: files.length, file: label, outcome, reason });
    }
  };
  await Promise.all(Array.from({ length: COPIES_AT_ONCE }, copyNext));
  ctx.log.info({ event: 'files_migrated', ...report, failures: report.failures.length }, 'files migrated');
  return report;
}

/** Every stored key to copy, once, with how a person finds it. */
async function filesToMigrate(ctx: AppContext): Promise<Array<{ key: string; label: string }>> {
  const files = new Map<string, string>();
  for (const row of await allStoredPaths(ctx.db)) if (!files.has(row.filePath)) files.set(row.filePath, `file ${row.id} (${row.filePath})`);
  for (const key of await storedPathsInTrash(ctx.db)) if (!files.has(key)) files.set(key, `${key} (in Recently deleted)`);
  return [...files].map(([key, label]) => ({ key, label }));
}

async function copyOne(source: FileStorage, target: FileStorage, key: string): Promise<CopyOutcome> {
  if (!isStorageKey(key)) throw new Error('not a name this app generates, left for a person to look at');
  const [sourceSize, targetSize] = await Promise.all([source.size(key), target.size(key)]);
  if (sourceSize === null) {
    if (targetSize === null) throw new Error(`missing from both ${source.location} and ${target.location}`);
    return 'onlyOnTarget';
  }
  if (targetSize === sourceSize && (await sameBytes(source, target, key))) return 'alreadyThere';
  await target.write(key, source.read(key), sourceSize);
  if (!(await sameBytes(source, target, key))) {
    // Never leave a copy that differs from its source where it could be served.
    await target.remove(key).catch(() => undefined);
    throw new Error(`the copy read back from ${target.location} does not match its source (SHA-256)`);
  }
  return 'copied';
}

/** Both stores read on their own, so a copy is judged by what each holds, not by what the copy passed on. */
async function sameBytes(source: FileStorage, target: FileStorage, key: string): Promise<boolean> {
  const [had, has] = await Promise.all([checksumOf(source, key), checksumOf(target, key)]);
  return had === has;
}

async function checksumOf(storage: FileStorage, key: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of storage.read(key)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
