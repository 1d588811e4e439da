import { Router } from 'express';
import { pipeline } from 'node:stream/promises';
import { listBackups, openBackup, startBackupNow } from '@services/backup/service.js';
import { actorOf } from '../actor.js';
import { defineRead, type ReadRoute } from '../reads.js';

/** The Backups panel (admins; the services check the role). */
export const backupsReads: ReadRoute[] = [defineRead('/api/backups', ({ ctx, actor }) => listBackups(ctx, actor))];

export function backupsRouter(): Router {
  const router = Router();
  router.post('/backups', async (req, res) => {
    res.status(202).json({ id: await startBackupNow(req.ctx, actorOf(req)) });
  });
  // Streamed from the disk: an archive can be gigabytes.
  router.get('/backups/:name/download', async (req, res) => {
    const archive = await openBackup(req.ctx, actorOf(req), String(req.params.name));
    res.setHeader('Content-Type', 'application/gzip');
    res.setHeader('Content-Length', String(archive.bytes));
    res.setHeader('Content-Disposition', `attachment; filename="${archive.name}"`);
    await pipeline(archive.stream, res).catch((error: unknown) => req.ctx.log.warn({ err: error }, 'backup download cut short'));
  });
  return router;
}
