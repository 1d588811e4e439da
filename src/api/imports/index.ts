import busboy from 'busboy';
import type { Readable } from 'node:stream';
import express, { Router, type Request, type RequestHandler } from 'express';
import { AppError, badRequest, payloadTooLarge } from '@services/errors.js';
import { discardPart, whenClientLeaves } from '@services/files/multipart.js';
import { OVERFLOW_KEY, type SourceRow } from '@shared/imports/csv-records.js';
import { IMPORT_MESSAGES, type ImportKind } from '@shared/imports/rules.js';
import type { ImportReport } from '@services/imports/service.js';
import { startImportJob, waitForJob } from '@services/jobs/service.js';
import type { BrandsImportResult, EventsImportResult } from '@shared/imports/results.js';
import { checkCsvText, CsvTextError } from '@shared/csv-text.js';
import { actorOf } from '../actor.js';
import { requireRole } from '@services/roles.js';
import type { ReadRoute } from '../reads.js';
import { boundLargeBodies } from './large-bodies.js';

/** GET endpoints of this area, served by /api (server-side loaders call the same services through src/ssr/data-source.ts). */
export const importsReads: ReadRoute[] = [];

/** The screens send a whole file as JSON rows; 50 MB holds a few hundred thousand rows, and nothing else gets this limit. */
const IMPORT_BODY_LIMIT = '50mb';
const MAX_ROWS = 500_000;
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

/** Text that lost characters before it reached us (e.g. Windows-1252 bytes sent as JSON) is refused, never stored. */
function checkText(text: string, line: number) {
  try {
    checkCsvText(text, line);
  } catch (error) {
    throw error instanceof CsvTextError ? badRequest(error.message) : error;
  }
}

/**
 * `{ data: rows, lines? }`: rows keyed by the CSV header (spec point 7). `lines`, sent by our screens, gives each
 * row's line in the file so errors name the line the user sees even when blank or dropped rows were left out;
 * without it row i is taken to be on line i + 2 (after the header).
 * Rows are copied into prototype-less objects, so a header cell such as "__proto__" is only ever a column name.
 */
function sourceFromBody(kind: ImportKind, body: unknown): { header: string[]; chunks: [SourceRow[]] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw noData(kind);
  const { data, lines, ...rest } = body as { data?: unknown; lines?: unknown };
  const unknownKeys = Object.keys(rest);
  if (unknownKeys.length) throw badRequest(`Unknown field(s): ${unknownKeys.join(', ')}`);
  if (data === undefined || data === null || (Array.isArray(data) && data.length === 0)) throw noData(kind);
  if (!Array.isArray(data)) throw badRequest('data must be a list of rows', [{ path: 'data', message: 'Expected a list of rows' }]);
  if (data.length > MAX_ROWS) throw badRequest(`At most ${MAX_ROWS} rows per import; use \`pacer import\` for larger files`);
  if (lines !== undefined) {
    const valid =
      Array.isArray(lines) && lines.length === data.length && lines.every((line) => Number.isInteger(line) && (line as number) > 1);
    if (!valid)
      throw badRequest('lines must give one line number (above 1) per row', [
        { path: 'lines', message: 'Expected one line number per row' },
      ]);
  }
  const header: string[] = [];
  const seen = new Set<string>();
  const rows: SourceRow[] = data.map((item: unknown, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw badRequest(`Row ${index + 1} is not an object keyed by the CSV header`, [
        { path: `data.${index}`, message: 'Expected an object' },
      ]);
    }
    const values = Object.create(null) as Record<string, string>;
    const line = lines ? (lines as number[])[index]! : index + 2;
    for (const [key, value] of Object.entries(item)) {
      if (value !== null && typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
        throw badRequest(`Row ${index + 1}: ${key} must be text`, [{ path: `data.${index}.${key}`, message: 'Expected text' }]);
      }
      values[key] = value === null ? '' : String(value);
      if (typeof value === 'string') checkText(value, line);
      if (!seen.has(key) && key !== OVERFLOW_KEY) {
        checkText(key, 1);
        seen.add(key);
        header.push(key);
      }
    }
    return { line, values };
  });
  return { header, chunks: [rows] };
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
 * Starts an import job from a request: an uploaded CSV file, or JSON rows (what the screens send, parsed in the
 * browser, checked here so bad rows are answered at once). Answers the job's id.
 */
export function startImportFromRequest(
  req: Request,
  kind: ImportKind,
  options: { dryRun?: boolean; body?: unknown } = {},
): Promise<number> {
  const params = { kind, ...(options.dryRun ? { dryRun: true } : {}) };
  if (req.is('multipart/form-data'))
    return withUploadedFile(kind, req, (file) => startImportJob(req.ctx, actorOf(req), params, { format: 'csv', bytes: file }));
  const source = sourceFromBody(kind, options.body ?? req.body);
  const rows = source.chunks[0]!;
  return startImportJob(req.ctx, actorOf(req), params, { format: 'rows', bytes: serialisedRows(source.header, rows), rows: rows.length });
}

/** Rows written per piece of the stored JSON. */
const ROWS_PER_PIECE = 1000;

/**
 * The checked rows as the JSON the job reads back (`{header, rows}`), made a piece at a time as storage takes it,
 * so a large import is not held a second time as one string and again as its bytes.
 */
async function* serialisedRows(header: string[], rows: SourceRow[]): AsyncIterable<Buffer> {
  yield Buffer.from(`{"header":${JSON.stringify(header)},"rows":[`);
  for (let start = 0; start < rows.length; start += ROWS_PER_PIECE) {
    const piece = rows.slice(start, start + ROWS_PER_PIECE).map((row) => JSON.stringify(row));
    yield Buffer.from((start ? ',' : '') + piece.join(','));
  }
  yield Buffer.from(']}');
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
  const json = express.json({ limit: IMPORT_BODY_LIMIT });

  router.post('/events/bulk-import', staffOnly, boundLargeBodies, json, async (req, res) => {
    const report = await importAndWait('events', req);
    req.log.info(
      { event: 'events_import', rows: report.rowsRead, updated: report.updated, created: report.created, failed: report.failedRows },
      'events imported',
    );
    res.json({ updated: report.updated, created: report.created, skipped: report.skipped, errors: report.errors });
  });

  router.post('/brands/bulk-import', staffOnly, boundLargeBodies, json, async (req, res) => {
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
