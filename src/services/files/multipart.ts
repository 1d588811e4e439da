import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { MAX_FILE_BYTES, MAX_FILES_PER_UPLOAD, sanitiseOriginalName, uploadMessages } from '@shared/schemas/files.js';
import { AppError, badRequest, payloadTooLarge } from '../errors.js';
import type { FileStorage } from './storage.js';

interface ReceivedFile {
  tempPath: string;
  originalName: string;
  size: number;
}

export interface ReceivedUpload {
  fields: Record<string, string>;
  files: ReceivedFile[];
}

/** Every busboy limit is explicit: its defaults are Infinity (security checklist item 12). */
const UPLOAD_LIMITS = {
  // busboy reports the limit when a file reaches it, so one byte more lets exactly 10 MB through.
  fileSize: MAX_FILE_BYTES + 1,
  files: MAX_FILES_PER_UPLOAD,
  fields: 10,
  parts: MAX_FILES_PER_UPLOAD + 10,
  fieldSize: 1024,
  fieldNameSize: 100,
} as const;

/**
 * Streams a multipart upload to temporary files, enforcing the limits while the bytes arrive. Resolves only when
 * every file was received whole; on any failure (a limit, a malformed body, the client going away) every
 * temporary file of the request is removed before the promise rejects, so nothing is left behind.
 */
export function receiveMultipart(request: Readable & { headers: IncomingHttpHeaders }, storage: FileStorage): Promise<ReceivedUpload> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: request.headers, limits: UPLOAD_LIMITS, defParamCharset: 'utf8' });
    } catch {
      reject(badRequest('The upload must be sent as multipart/form-data'));
      return;
    }
    // No prototype: a field named "__proto__" is only ever a field.
    const fields = Object.create(null) as Record<string, string>;
    const files: ReceivedFile[] = [];
    const writes: Array<Promise<unknown>> = [];
    let failure: AppError | Error | undefined;
    let settled = false;

    const fail = (error: AppError | Error) => {
      failure ??= error;
    };

    const finish = async () => {
      if (settled) return;
      settled = true;
      // Wait for every write to end (or fail) so the clean-up below sees every temporary file.
      const outcomes = await Promise.allSettled(writes);
      for (const outcome of outcomes) if (outcome.status === 'rejected' && !failure) fail(storageFailure(outcome.reason));
      if (failure) {
        await Promise.all(files.filter((file) => file.tempPath).map((file) => storage.discard(file.tempPath).catch(() => undefined)));
        reject(failure);
      } else {
        resolve({ fields, files });
      }
    };

    // busboy hands a part whose name is empty (name="") over with no name at all: read it as ''.
    parser.on('field', (rawName: string | undefined, value, info) => {
      const name = rawName ?? '';
      if (info.nameTruncated || info.valueTruncated) return fail(badRequest(`The field ${name.slice(0, 100)} is too long`));
      fields[name] = value;
    });

    parser.on('file', (rawName: string | undefined, stream, info) => {
      const name = rawName ?? '';
      const originalName = sanitiseOriginalName(info.filename ?? '');
      // A file input left empty still sends a part with no file name: it is no file at all.
      if (name !== 'files' || !info.filename || failure) {
        if (name !== 'files' && info.filename) fail(badRequest(`Unexpected file field ${name.slice(0, 100)}; send files as "files"`));
        discardPart(stream);
        return;
      }
      // Listed now, filled in when written, so the files keep the order they were sent in.
      const entry: ReceivedFile = { tempPath: '', originalName, size: 0 };
      files.push(entry);
      stream.on('limit', () => fail(payloadTooLarge(uploadMessages.tooLarge(originalName))));
      writes.push(
        storage.receive(stream).then(({ tempPath, size }) => {
          entry.tempPath = tempPath;
          entry.size = size;
        }),
      );
    });

    parser.on('filesLimit', () => fail(payloadTooLarge(`Too many files in one upload (at most ${MAX_FILES_PER_UPLOAD})`)));
    parser.on('fieldsLimit', () => fail(payloadTooLarge('Too many form fields in the upload')));
    parser.on('partsLimit', () => fail(payloadTooLarge('Too many parts in the upload')));
    parser.on('error', (error: Error) => {
      fail(badRequest(`The upload could not be read: ${error.message}`));
      request.unpipe(parser);
      request.resume();
      void finish();
    });
    parser.on('close', () => void finish());
    // The client went away before the body ended: busboy would wait for more bytes for ever, so stop it here;
    // destroying it fails the file stream being written, whose temporary file is then removed.
    const abandon = () => {
      if (settled) return;
      fail(new AppError(400, 'upload_aborted', 'The upload was interrupted'));
      request.unpipe(parser);
      parser.destroy();
      void finish();
    };
    whenClientLeaves(request, abandon);
    request.pipe(parser);
  });
}

/**
 * Calls `left` when the client goes away before the body has ended (busboy would otherwise wait for the rest for
 * ever). That includes a client that left before this was called, while earlier middleware awaited (the session's
 * database read): its 'close' has passed and will not come again.
 */
export function whenClientLeaves(request: Readable, left: () => void): void {
  const check = () => {
    if (!request.readableEnded) left();
  };
  request.on('aborted', check);
  request.on('close', check);
  if (request.destroyed) check();
}

/**
 * Reads a part that is not kept to its end. A body cut short fails the part too (busboy destroys it with the
 * parser's error, which the parser also reports): without a listener, that 'error' would end the process.
 */
export function discardPart(stream: Readable): void {
  stream.on('error', () => undefined);
  stream.resume();
}

/** A full disk is the server's problem, not a bug: say so (507) rather than answering 500. */
function storageFailure(reason: unknown): AppError | Error {
  const code = (reason as { code?: string }).code;
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new AppError(507, 'insufficient_storage', 'There is not enough storage space for this upload');
  return reason instanceof Error ? reason : new Error(String(reason));
}
