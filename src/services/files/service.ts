import type { Readable } from 'node:stream';
import type { StoredFile } from '@shared/schemas/attachments.js';
import { withTransaction } from '@db/transaction.js';
import { uploadMessages } from '@shared/schemas/files.js';
import { ownerId } from '@shared/schemas/fields.js';
import { assertOwnerExists, lockOwner, parseRecordType } from '../attachments/owners.js';
import type { RecordType } from '@shared/record-types.js';
import type { Actor, AppContext } from '../context.js';
import { AppError, badRequest, isAppError, notFound } from '../errors.js';
import { historyActorOf, recordHistory } from '../history/service.js';
import { requireRole } from '../roles.js';
import { detectAllowedType, type DetectedType } from './detect.js';
import type { ReceivedUpload } from './multipart.js';
import { deleteFileRow, findFileRow, findFileRows, insertFileRow, listFileRows, type FileRow } from './queries.js';
import { newStorageKey, openStorage, type FileStorage } from './storage.js';

/** The one store of this process: STORAGE's (the upload directory, outside public/, or the S3 bucket). */
export function storageOf(ctx: AppContext): Promise<FileStorage> {
  return openStorage(ctx.config, ctx.log);
}

const contentUrlOf = (id: number) => `/api/uploads/${id}`;

function present(row: FileRow): StoredFile {
  const { filePath: _stored, ...rest } = row;
  return { ...rest, url: contentUrlOf(row.id) };
}

export async function listFiles(ctx: AppContext, entityType: RecordType, entityId: number): Promise<StoredFile[]> {
  await assertOwnerExists(ctx.db, entityType, entityId);
  return filesOf(ctx, entityType, entityId);
}

/** An owner's files, without checking the owner (the caller has read it). */
export async function filesOf(ctx: AppContext, entityType: RecordType, entityId: number): Promise<StoredFile[]> {
  return (await listFileRows(ctx.db, entityType, entityId)).map(present);
}

/**
 * Stores a received upload: every file is checked first (type by its bytes), and only when all pass are they
 * put into the store, then their rows inserted in one transaction. Any failure leaves neither rows nor bytes.
 */
export async function storeUpload(ctx: AppContext, actor: Actor, upload: ReceivedUpload): Promise<StoredFile[]> {
  requireRole(actor, 'staff');
  const { entityType, entityId, ids } = await commitUpload(ctx, actor, upload);
  ctx.log.info({ event: 'files_uploaded', owner: `${entityType}:${entityId}`, count: ids.length }, 'files uploaded');
  return (await findFileRows(ctx.db, ids)).map(present);
}

/**
 * Checks, stores the bytes, then inserts the rows in one transaction. The bytes go in before the transaction, so
 * the owner lock (ADR 0020) is never held while they travel (an S3 upload can take seconds); bytes without a row
 * for a moment are what the files check's grace period allows for. The clean-up below covers only what happens
 * before the commit, so a later failure (the read back) can never remove the bytes of rows that were committed.
 */
async function commitUpload(
  ctx: AppContext,
  actor: Actor,
  upload: ReceivedUpload,
): Promise<{ entityType: RecordType; entityId: number; ids: number[] }> {
  const storage = await storageOf(ctx);
  const promoted: string[] = [];
  try {
    const entityType = parseRecordType(upload.fields.entityType);
    const parsedId = ownerId.safeParse(upload.fields.entityId);
    if (!parsedId.success) throw badRequest('entityId must be a record id');
    if (upload.files.length === 0) throw badRequest(uploadMessages.none);

    const checked: Array<{ file: ReceivedUpload['files'][number]; type: DetectedType; key: string }> = [];
    for (const file of upload.files) {
      const type = await detectAllowedType(file.tempPath);
      if (!type) throw badRequest(uploadMessages.unsupported(file.originalName));
      checked.push({ file, type, key: newStorageKey(type.extension) });
    }

    for (const { file, key } of checked) {
      // Listed first: a store that kept the bytes but failed afterwards is cleaned up too.
      promoted.push(key);
      await storage.promote(file.tempPath, key);
    }

    const now = ctx.clock.now();
    const ids = await withTransaction(ctx, async (trx) => {
      await lockOwner(trx, entityType, parsedId.data);
      const inserted: number[] = [];
      for (const { file, type, key } of checked) {
        const values = {
          entityType,
          entityId: parsedId.data,
          fileName: key,
          originalName: file.originalName,
          filePath: key,
          fileType: type.mime,
          fileSize: file.size,
          fileCategory: type.category,
          description: null,
          uploadedAt: now,
          uploadedBy: actor.userId,
        };
        inserted.push(await insertFileRow(trx, values));
      }
      const who = await historyActorOf(trx, actor);
      await recordHistory(
        trx,
        ctx,
        who,
        inserted.map((fileId, index) => {
          const { file, type } = checked[index]!;
          const changes = {
            entityType,
            entityId: parsedId.data,
            originalName: file.originalName,
            fileType: type.mime,
            fileSize: file.size,
          };
          return { entityType: 'file', entityId: fileId, action: 'create' as const, changes };
        }),
      );
      return inserted;
    });
    return { entityType, entityId: parsedId.data, ids };
  } catch (error) {
    // The rows were rolled back (or never written): their bytes go too, promoted or still temporary.
    await Promise.all(promoted.map((key) => storage.remove(key).catch(() => undefined)));
    await Promise.all(upload.files.map((file) => storage.discard(file.tempPath).catch(() => undefined)));
    throw error;
  }
}

async function getFileRow(ctx: AppContext, id: number): Promise<FileRow> {
  const row = await findFileRow(ctx.db, id);
  if (!row) throw notFound('File not found');
  return row;
}

export interface FileContent {
  file: FileRow;
  /** The whole file's size. */
  size: number;
  /** The part served: the whole file, or the one range asked for. */
  range: { start: number; end: number } | null;
  /**
   * Opens the bytes; call it where they are piped. A stream opened in here and handed back through awaits would
   * fail unheard (file gone) as soon as one of those awaits waited for I/O, and an unheard 'error' ends the process.
   */
  open(): Readable;
}

/**
 * The stored bytes of a file, whole or one `Range: bytes=…` of them (so videos can seek). A range that cannot be
 * satisfied answers 416; several ranges or a malformed header are ignored and the whole file is served (RFC 9110).
 */
export async function openFileContent(ctx: AppContext, id: number, rangeHeader?: string): Promise<FileContent> {
  const file = await getFileRow(ctx, id);
  const storage = await storageOf(ctx);
  // A refused key is as good as missing; the store being unreachable is a 503 of its own.
  const size = await storage.size(file.filePath).catch((error: unknown) => {
    if (isAppError(error)) throw error;
    return null;
  });
  if (size === null) throw notFound('The stored file is missing');
  const range = rangeHeader ? parseByteRange(rangeHeader, size) : null;
  if (range === 'unsatisfiable') {
    throw new AppError(416, 'range_not_satisfiable', 'The requested range is outside the file', undefined, {
      'Content-Range': `bytes */${size}`,
    });
  }
  return { file, size, range, open: () => storage.read(file.filePath, range ?? undefined) };
}

function parseByteRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** Deletes the row, then its bytes once the delete has committed (a crash in between leaves bytes the files check removes). */
export async function deleteFile(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  requireRole(actor, 'staff');
  const file = await getFileRow(ctx, id);
  await withTransaction(ctx, async (trx) => {
    if (!(await deleteFileRow(trx, id))) throw notFound('File not found');
    await recordHistory(trx, ctx, await historyActorOf(trx, actor), [
      { entityType: 'file', entityId: id, action: 'delete', changes: file },
    ]);
  });
  await storageOf(ctx)
    .then((storage) => storage.remove(file.filePath))
    .catch((error: unknown) => ctx.log.warn({ err: error, fileId: id }, 'stored bytes of a deleted file could not be removed'));
  ctx.log.info({ event: 'file_deleted', fileId: id, userId: actor.userId }, 'file deleted');
}
