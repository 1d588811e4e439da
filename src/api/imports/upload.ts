import busboy from 'busboy';
import type { Readable } from 'node:stream';
import type { Request } from 'express';
import { AppError, badRequest, payloadTooLarge } from '@services/errors.js';
import { discardPart, whenClientLeaves } from '@services/files/multipart.js';

/** An import file may have 50 MB (the spec's imports and the general import alike). */
const IMPORT_FILE_BYTES = 50 * 1024 * 1024;
const UPLOAD_FIELD = 'file';
const NOT_MULTIPART = 'The upload must be sent as multipart/form-data';

/** What differs between the imports' uploads: their messages, and what the fields beside the file may hold. */
export interface UploadRules {
  tooLarge: string;
  /** The form ended without a file in the field "file". */
  noFile: () => AppError;
  /** A file in another field, or a second one: refused with this error, or (null) read and ignored. */
  otherFile: (() => AppError) | null;
  /** Room for the multipart framing and the fields around the file. */
  overheadBytes: number;
  fieldSize: number;
  /** Whether the fields are wanted: the form is then read to its end (fields may follow the file) before answering. */
  fields: boolean;
}

const unreadable = (reason: string) => badRequest(`The upload could not be read: ${reason}`);

/**
 * A file sent as multipart/form-data in the field "file": its bytes are handed to `store` as they arrive, never
 * held, and the fields beside it (before or after it) are answered once the form has ended. The upload limits and a
 * client that goes away fail the stream, and so the store. The spec's imports store the file in the job's input
 * (./index.ts); the general import first in a temporary file, whose header it checks before starting the job
 * (./general.ts).
 */
export async function withUploadedFile<R>(
  req: Request,
  rules: UploadRules,
  store: (file: Readable) => Promise<R>,
): Promise<{ fields: Record<string, string>; stored: R }> {
  if (Number(req.get('content-length') ?? 0) > IMPORT_FILE_BYTES + rules.overheadBytes) throw payloadTooLarge(rules.tooLarge);
  if (!req.is('multipart/form-data')) throw badRequest(NOT_MULTIPART);
  let form: busboy.Busboy;
  try {
    form = busboy({
      headers: req.headers,
      limits: { files: 1, fileSize: IMPORT_FILE_BYTES, fields: 10, parts: 11, fieldSize: rules.fieldSize, fieldNameSize: 100 },
    });
  } catch {
    // A multipart type without a boundary: busboy cannot start, and the client sent no readable form.
    throw badRequest(NOT_MULTIPART);
  }
  // No prototype: a field named "__proto__" is only ever a field.
  const fields = Object.create(null) as Record<string, string>;
  let uploadFailure: AppError | undefined;
  let formEnded: (error?: AppError) => void = () => undefined;
  const ended = new Promise<void>((resolve, reject) => (formEnded = (error) => (error ? reject(error) : resolve())));
  ended.catch(() => undefined);
  const received = new Promise<Readable>((resolve, reject) => {
    let file: Readable | null = null;
    const broken = (reason: string) => {
      const failure = unreadable(reason);
      uploadFailure ??= failure;
      // Stops the store reading it (busboy would otherwise wait for bytes that never come).
      file?.destroy(failure);
      reject(failure);
      formEnded(failure);
    };
    form.on('field', (name, value) => (fields[name] = value));
    form.on('file', (name, stream) => {
      if (name !== UPLOAD_FIELD || file) {
        discardPart(stream);
        if (rules.otherFile) reject(rules.otherFile());
        return;
      }
      file = stream;
      // Heard from this tick on (the store reads it after an await); the store's reading still sees the error.
      stream.on('error', () => undefined);
      // busboy cuts a file at the limit and ends it as if whole; failing it stops the store instead.
      stream.on('limit', () => stream.destroy(payloadTooLarge(rules.tooLarge)));
      resolve(stream);
    });
    // The form ended without a file (once resolved, this changes nothing).
    form.on('close', () => {
      reject(rules.noFile());
      formEnded();
    });
    form.on('error', (error: Error) => broken(error.message));
    req.on('error', (error: Error) => broken(error.message));
    whenClientLeaves(req, () => broken('the client went away'));
  });
  req.pipe(form);
  try {
    const stored = await store(await received);
    if (rules.fields) await ended;
    return { fields: { ...fields }, stored };
  } catch (error) {
    // busboy fails the file stream with its own error (e.g. a body cut off) just before the form reports it; the
    // store may see the stream's error first, so answer with what the form said, the client's fault (400).
    throw uploadFailure ?? error;
  } finally {
    // A refused file can be answered before its body was read: read the rest, unparsed, so the connection stays usable.
    if (!req.readableEnded) {
      req.unpipe(form);
      req.resume();
    }
  }
}
