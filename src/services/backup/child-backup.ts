import { rm } from 'node:fs/promises';
import { runInBackgroundChild } from '../background/child.js';
import type { AppContext } from '../context.js';
import { AppError, JobCancelledError, withoutPaths } from '../errors.js';
import type { BackupResult } from './backup.js';
import type { SnapshotProgress } from './snapshot.js';

/** How often a running backup child is checked for a cancel. */
const CANCEL_CHECK_MS = 1000;

interface ChildBackupOptions {
  /** Throws JobCancelledError once the job was cancelled: the child is then killed. */
  checkpoint(): Promise<void>;
  onProgress: SnapshotProgress;
}

/** What the child said last on stderr: its error, without the paths of this machine that it may quote. */
function lastWords(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return withoutPaths((lines.at(-1) ?? 'it stopped without saying why').replace(/^Error:\s*/, '')).slice(0, 300);
}

/**
 * The backup job's work: `pacer db backup --progress-lines` in a child process at BACKUP_NICE, its progress passed
 * on as it comes, killed when the job is cancelled. The archive appears under its final name only when complete;
 * a child that was killed or failed leaves no temporary file behind (it removes them itself, and so do we).
 */
export async function backupInChildProcess(ctx: AppContext, options: ChildBackupOptions): Promise<BackupResult> {
  const { dir, keep, nice } = ctx.config.backup;
  const controller = new AbortController();
  let result: BackupResult | undefined;
  let temporary: string[] = [];
  let cancelled: unknown;
  const watch = setInterval(() => {
    options.checkpoint().catch((error: unknown) => {
      if (error instanceof JobCancelledError) {
        cancelled = error;
        controller.abort(error);
      } else ctx.log.warn({ err: error }, 'could not check the backup job for a cancel');
    });
  }, CANCEL_CHECK_MS);
  try {
    const exit = await runInBackgroundChild({
      config: ctx.config,
      // The folders as this process has them (the config may be a caller's changed copy).
      env: { BACKUP_DIR: dir, UPLOAD_DIR: ctx.config.uploadDir },
      args: ['db', 'backup', '--keep', String(keep), '--progress-lines'],
      nice,
      signal: controller.signal,
      onMessage(message) {
        if (message.started) ctx.log.info(message.started, 'backup running in a child process');
        else if (message.progress) void options.onProgress(message.progress as Parameters<SnapshotProgress>[0]);
        else if (Array.isArray(message.temporary)) temporary = message.temporary.filter((item) => typeof item === 'string');
        else if (message.result) result = message.result as BackupResult;
      },
    });
    if (cancelled) throw cancelled;
    if (exit.code !== 0 || !result) {
      ctx.log.warn({ pid: exit.pid, code: exit.code, signal: exit.signal, stderr: exit.stderr }, 'the backup child process failed');
      throw new AppError(500, 'backup_failed', `The backup failed: ${lastWords(exit.stderr)}`);
    }
    return result;
  } finally {
    clearInterval(watch);
    if (!result) await Promise.all(temporary.map((file) => rm(file, { recursive: true, force: true })));
  }
}
