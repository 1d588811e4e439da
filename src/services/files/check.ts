import type { AppContext } from '../context.js';
import { allStoredPaths, deleteFileRows } from './queries.js';
import { isStorageKey, storageFor } from './storage.js';

export interface FilesCheckReport {
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
 * Compares the upload directory with the files table. An upload moves its bytes in just before its rows commit,
 * so bytes younger than the grace period are never treated as orphans.
 */
export async function checkStoredFiles(ctx: AppContext, options: { fix: boolean; graceMs: number }): Promise<FilesCheckReport> {
  const storage = storageFor(ctx.config.uploadDir);
  const cutoff = ctx.clock.now().getTime() - options.graceMs;
  const rows = await allStoredPaths(ctx.db);
  const referenced = new Set(rows.map((row) => row.filePath));
  const stored = await storage.list();
  const storedKeys = new Set(stored.map((entry) => entry.key));

  const orphans = stored.filter((entry) => !referenced.has(entry.key));
  const bytesWithoutRow = orphans.filter((entry) => entry.modifiedAt.getTime() <= cutoff).map((entry) => entry.key);
  const incoming = await storage.listIncoming();
  const staleIncoming = incoming.filter((entry) => entry.modifiedAt.getTime() <= cutoff).map((entry) => entry.tempPath);
  const rowsWithoutBytes = rows.filter((row) => !storedKeys.has(row.filePath));
  const report: FilesCheckReport = {
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
