import { Router } from 'express';
import { pipeline } from 'node:stream/promises';
import { parseId, parseRecordType } from '@services/attachments/owners.js';
import { badRequest } from '@services/errors.js';
import { receiveMultipart } from '@services/files/multipart.js';
import { deleteFile, listFiles, openFileContent, storageOf, storeUpload } from '@services/files/service.js';
import { defineRead } from '../reads.js';
import { actorOf } from '../actor.js';
import { requireRole } from '@services/roles.js';

export const filesReads = [
  defineRead('/api/files/:entityType/:entityId', ({ ctx, params }) =>
    listFiles(ctx, parseRecordType(params.entityType), parseId(params.entityId, 'Record')),
  ),
];

/** `filename` for old clients (ASCII only, no quotes or separators) and RFC 5987 `filename*` with the real name. */
function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\/;%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export function filesRouter(): Router {
  const router = Router();
  router.post('/upload', async (req, res) => {
    // Before the bytes are received: a viewer's upload is refused without storing anything.
    requireRole(actorOf(req), 'staff');
    if (!req.is('multipart/form-data')) throw badRequest('The upload must be sent as multipart/form-data');
    const upload = await receiveMultipart(req, await storageOf(req.ctx));
    res.status(201).json({ files: await storeUpload(req.ctx, actorOf(req), upload) });
  });

  // Not /api/files/:id/content: that shape is already taken by the owner listing /api/files/:entityType/:entityId.
  router.get('/uploads/:id', async (req, res) => {
    const { file, open, size, range } = await openFileContent(req.ctx, parseId(req.params.id, 'File'), req.get('range'));
    res.status(range ? 206 : 200).set({
      'Content-Type': file.fileType ?? 'application/octet-stream',
      'Content-Length': String(range ? range.end - range.start + 1 : size),
      'Accept-Ranges': 'bytes',
      ...(range ? { 'Content-Range': `bytes ${range.start}-${range.end}/${size}` } : {}),
      'Content-Disposition': contentDisposition(req.query.download === '1' ? 'attachment' : 'inline', file.originalName),
      'X-Content-Type-Options': 'nosniff',
      // Served bytes never run as a page of our site, whatever they turn out to be.
      'Content-Security-Policy': "default-src 'none'; img-src 'self'; media-src 'self'; sandbox",
      'Cache-Control': 'private, max-age=300',
    });
    await pipeline(open(), res);
  });

  router.delete('/files/:id', async (req, res) => {
    await deleteFile(req.ctx, actorOf(req), parseId(req.params.id, 'File'));
    res.status(204).end();
  });
  return router;
}
