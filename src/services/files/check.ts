import type { AppContext } from '../context.js';
import { storedPathsInTrash } from '../trash/service.js';
import { allStoredPaths, deleteFileRows } from './queries.js';
import { isStorageKey, openStorage } from './storage.js';

export interface FilesCheckReport {
  /** Where the files were looked for: the upload directory or s3://bucket. */
  store: string;
  /** Stored files no row points to (older than the grace period). */
  bytesWithoutRow: string[];
  /** Rows whose stored file is missing. */
  rowsWithoutBytes: Array<{ id: number; filePath: string }>;
  /** Temporary files of uploads that never finished (older than the grace period). */
  staleIncoming: string[];
  /** Orphans younger than the grace period: possibly an upload committing right now, so left alone. */
  recentSkipped: number;
  fixed: { bytesRemoved: number; rowsRemoved: number; incomingRemoved: number } | null;
  failures: string[];
}

/**
 * Compares the configured store (the upload directory or the S3 bucket) with the files table and the files kept in
 * Recently deleted. An upload stores its bytes just before its rows commit, so bytes younger than the grace period
 * are never treated as orphans.
 */
export async function checkStoredFiles(ctx: AppContext, options: { fix: boolean; graceMs: number }): Promise<FilesCheckReport> {
  const storage = await openStorage(ctx.config, ctx.log);
  const cutoff = ctx.clock.now().getTime() - options.graceMs;
  const rows = await allStoredPaths(ctx.db);
  const referenced = new Set([...rows.map((row) => row.filePath), ...(await storedPathsInTrash(ctx.db))]);
  const stored = await storage.list();
  const storedKeys = new Set(stored.map((entry) => entry.key));

  const orphans = stored.filter((entry) => !referenced.has(entry.key));
  const bytesWithoutRow = orphans.filter((entry) => entry.modifiedAt.getTime() <= cutoff).map((entry) => entry.key);
  const incoming = await storage.listIncoming();
  const staleIncoming = incoming.filter((entry) => entry.modifiedAt.getTime() <= cutoff).map((entry) => entry.tempPath);
  const rowsWithoutBytes = rows.filter((row) => !storedKeys.has(row.filePath));
  const report: FilesCheckReport = {
    store: storage.location,
    bytesWithoutRow,
    rowsWithoutBytes,
    staleIncoming,
    recentSkipped: orphans.length - bytesWithoutRow.length + incoming.length - staleIncoming.length,
    fixed: null,
    failures: [],
  };
  if (!options.fix) return report;

  const fixed = { bytesRemoved: 0, rowsRemoved: 0, incomingRemoved: 0 };
  for (const key of bytesWithoutRow) {
    if (!isStorageKey(key)) {
      report.failures.push(`${key}: not a name this app generates, left for a person to look at`);
      continue;
    }
    try {
      await storage.remove(key);
      fixed.bytesRemoved++;
    } catch (error) {
      report.failures.push(`${key}: ${(error as Error).message}`);
    }
  }
  for (const tempPath of staleIncoming) {
    try {
      await storage.discard(tempPath);
      fixed.incomingRemoved++;
    } catch (error) {
      report.failures.push(`${tempPath}: ${(error as Error).message}`);
    }
  }
  fixed.rowsRemoved = await deleteFileRows(
    ctx.db,
    rowsWithoutBytes.map((row) => row.id),
  );
  report.fixed = fixed;
  ctx.log.info({ event: 'files_check_fixed', ...fixed }, 'files check repaired the store');
  return report;
}
