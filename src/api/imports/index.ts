import busboy from 'busboy';
import type { Readable } from 'node:stream';
import { Router, type Request, type RequestHandler } from 'express';
import { AppError, badRequest, payloadTooLarge } from '@services/errors.js';
import { discardPart, whenClientLeaves } from '@services/files/multipart.js';
import { IMPORT_MESSAGES, type ImportKind } from '@shared/imports/rules.js';
import type { ImportReport } from '@services/imports/service.js';
import { startImportJob, waitForJob } from '@services/jobs/service.js';
import type { BrandsImportResult, EventsImportResult } from '@shared/imports/results.js';
import { actorOf } from '../actor.js';
import { requireRole } from '@services/roles.js';
import type { ReadRoute } from '../reads.js';
import { receiveJsonBody } from './json-body.js';
import { boundLargeBodies } from './large-bodies.js';

/** GET endpoints of this area, served by /api (server-side loaders call the same services through src/ssr/data-source.ts). */
export const importsReads: ReadRoute[] = [];

/** An uploaded CSV file gets the same limit, plus room for the multipart framing around it. */
const IMPORT_FILE_BYTES = 50 * 1024 * 1024;
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const UPLOAD_FIELD = 'file';

const UPLOAD_MESSAGES = {
  wrongField: `Send the CSV file in a form field named "${UPLOAD_FIELD}"`,
  tooLarge: 'A CSV file may have at most 50 MB; use `pacer import` for larger files',
  notMultipart: 'The upload must be sent as multipart/form-data',
  unreadable: (reason: string) => `The upload could not be read: ${reason}`,
};

function noData(kind: ImportKind) {
  return badRequest(kind === 'events' ? IMPORT_MESSAGES.events.noDataTitle : IMPORT_MESSAGES.brands.noData);
}

/**
 * A CSV file sent as multipart/form-data in the field "file" (`curl -F file=@brands.csv`): its bytes are handed to
 * `store` as they arrive (the import job stores them for whichever process runs it), memory flat however long the
 * file. The upload limits and a client that goes away fail the stream, and so the store.
 */
async function withUploadedFile<R>(kind: ImportKind, req: Request, store: (file: Readable) => Promise<R>): Promise<R> {
  if (Number(req.get('content-length') ?? 0) > IMPORT_FILE_BYTES + MULTIPART_OVERHEAD_BYTES)
    throw payloadTooLarge(UPLOAD_MESSAGES.tooLarge);
  let form: busboy.Busboy;
  try {
    form = busboy({
      headers: req.headers,
      limits: { files: 1, fileSize: IMPORT_FILE_BYTES, fields: 10, parts: 11, fieldSize: 1024, fieldNameSize: 100 },
    });
  } catch {
    throw badRequest(UPLOAD_MESSAGES.notMultipart);
  }
  let uploadFailure: AppError | undefined;
  const received = new Promise<Readable>((resolve, reject) => {
    let file: Readable | null = null;
    const broken = (reason: string) => {
      const failure = badRequest(UPLOAD_MESSAGES.unreadable(reason));
      uploadFailure ??= failure;
      // Stops the store reading it (busboy would otherwise wait for bytes that never come).
      file?.destroy(failure);
      reject(failure);
    };
    form.on('file', (name, stream) => {
      if (name !== UPLOAD_FIELD || file) {
        discardPart(stream);
        reject(badRequest(UPLOAD_MESSAGES.wrongField));
        return;
      }
      file = stream;
      // Heard from this tick on (the store reads it after an await); the store's reading still sees the error.
      stream.on('error', () => undefined);
      // busboy cuts a file at the limit and ends it as if whole; failing it stops the store instead.
      stream.on('limit', () => stream.destroy(payloadTooLarge(UPLOAD_MESSAGES.tooLarge)));
      resolve(stream);
    });
    // The form ended without a file (once resolved, this changes nothing).
    form.on('close', () => reject(noData(kind)));
    form.on('error', (error: Error) => broken(error.message));
    req.on('error', (error: Error) => broken(error.message));
    whenClientLeaves(req, () => broken('the client went away'));
  });
  req.pipe(form);
  try {
    return await store(await received);
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

/**
 * Starts an import job from a request: an uploaded CSV file, or JSON rows `{data, lines?}` (what the screens send,
 * parsed in the browser), each streamed into the job's stored input as it arrives and never held. JSON rows are
 * checked as they stream by the rules below, so bad rows are still answered at once, and nothing is stored.
 * `lines`, sent by our screens, gives each row's line in the file so errors name the line the user sees even when
 * blank or dropped rows were left out; without it row i is taken to be on line i + 2 (after the header).
 * Answers the job's id.
 */
async function startImportFromRequest(req: Request, kind: ImportKind): Promise<number> {
  if (req.is('multipart/form-data')) return startUploadedImport(req, { kind });
  const { jobId } = await receiveJsonBody(req, 'body', {
    early: () => ({ kind }),
    complete: (reader) => {
      reader.checkRows(kind, Object.keys(reader.fields));
      return { kind };
    },
  });
  return jobId!;
}

/** Starts an uploaded CSV file's import (POST /api/jobs as multipart/form-data). */
export function startUploadedImport(req: Request, params: { kind: ImportKind; dryRun?: boolean }): Promise<number> {
  return withUploadedFile(params.kind, req, (file) => startImportJob(req.ctx, actorOf(req), params, { format: 'csv', bytes: file }));
}

/** Enqueues the import and waits for it: the spec's endpoints answer with the counts, as they always have. */
async function importAndWait(kind: ImportKind, req: Request): Promise<ImportReport<BrandsImportResult & EventsImportResult>> {
  const id = await startImportFromRequest(req, kind);
  return (await waitForJob(req.ctx, id)) as unknown as ImportReport<BrandsImportResult & EventsImportResult>;
}

/** The role is checked before the rows are read: a viewer's import is refused without taking it in (the service checks again). */
const staffOnly: RequestHandler = (req, _res, next) => {
  requireRole(actorOf(req), 'staff');
  next();
};

/** Write endpoints of this area (mounted behind the signed-in check, before the general 1 MB JSON parser). */
export function importsRouter(): Router {
  const router = Router();

  router.post('/events/bulk-import', staffOnly, boundLargeBodies, async (req, res) => {
    const report = await importAndWait('events', req);
    req.log.info(
      { event: 'events_import', rows: report.rowsRead, updated: report.updated, created: report.created, failed: report.failedRows },
      'events imported',
    );
    res.json({ updated: report.updated, created: report.created, skipped: report.skipped, errors: report.errors });
  });

  router.post('/brands/bulk-import', staffOnly, boundLargeBodies, async (req, res) => {
    const report = await importAndWait('brands', req);
    req.log.info(
      {
        event: 'brands_import',
        rows: report.rowsRead,
        brandsCreated: report.brandsCreated,
        contactsCreated: report.contactsCreated,
        failed: report.failedRows,
      },
      'brands imported',
    );
    res.json({
      brandsCreated: report.brandsCreated,
      contactsCreated: report.contactsCreated,
      skipped: report.skipped,
      errors: report.errors,
    });
  });

  return router;
}
