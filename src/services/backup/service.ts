import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { BackupListing } from '@shared/schemas/backups.js';
import type { Actor, AppContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { startJob } from '../jobs/service.js';
import { requireRole } from '../roles.js';
import { listArchives } from './backup.js';
import { ARCHIVE_NAME } from './format.js';

/** The Backups panel: the archives in BACKUP_DIR, newest first (admins: an archive holds every row and file). */
export async function listBackups(ctx: AppContext, actor: Actor): Promise<BackupListing> {
  requireRole(actor, 'admin');
  const archives = await listArchives(ctx.config.backup.dir);
  return {
    items: archives.map(({ name, bytes, modifiedAt }) => ({ name, bytes, createdAt: modifiedAt.toISOString() })),
    schedule: ctx.config.backup.schedule ?? null,
    keep: ctx.config.backup.keep,
  };
}

/** "Back up now": a backup job, run like the scheduled one (by a worker, or by this server). */
export async function startBackupNow(ctx: AppContext, actor: Actor): Promise<number> {
  requireRole(actor, 'admin');
  return startJob(ctx, actor, 'backup', {});
}

/** An archive of BACKUP_DIR to download, by its name only (anything else is refused before it reaches a path). */
export async function openBackup(ctx: AppContext, actor: Actor, name: string): Promise<{ name: string; bytes: number; stream: Readable }> {
  requireRole(actor, 'admin');
  if (!ARCHIVE_NAME.test(name)) throw badRequest('Not a backup archive name');
  const archive = (await listArchives(ctx.config.backup.dir)).find((item) => item.name === name);
  if (!archive) throw notFound('Backup not found');
  return { name, bytes: archive.bytes, stream: createReadStream(path.join(ctx.config.backup.dir, name)) };
}
