import busboy from 'busboy';
import { Router, type Request } from 'express';
import { badRequest, notFound, payloadTooLarge } from '@services/errors.js';
import { discardPart, whenClientLeaves } from '@services/files/multipart.js';
import { previewGeneralImport } from '@services/imports/general/preview.js';
import { readTable } from '@services/imports/general/read.js';
import { getJob, startImportJob } from '@services/jobs/service.js';
import { csvRecord } from '@services/records/csv-writer.js';
import { requireRole } from '@services/roles.js';
import { parseInput } from '@services/validate.js';
import { GeneralImportParamsSchema, resolveMapping, type GeneralImportParams } from '@shared/imports/general.js';
import { actorOf } from '../actor.js';

/**
 * POST /api/imports: the general import (docs/decisions/0107-general-import.md) as multipart/form-data with the
 * fields `file` (CSV or XLSX), `type`, `mapping` (JSON), `mode`, `key`, `dryRun`, `ownerType`, `ownerColumn`. The
 * fields and the file's header are checked at once (a 400 names the problem); the rows run as a job, answered 202
 * with the job (a real run saves its mapping for the file's header, service.ts). GET /api/imports/{jobId}/report.csv
 * is the finished job's report: row, outcome, message. POST /api/imports/preview (multipart: `file`, `type`,
 * `ownerType`) answers what the mapping step shows: header, row count, samples, suggested and saved mappings.
 */

const FILE_BYTES = 50 * 1024 * 1024;
const MESSAGES = {
  tooLarge: 'An import file may have at most 50 MB; use `pacer import` for larger files',
  notMultipart: 'The upload must be sent as multipart/form-data',
  noFile: 'Send the file in a form field named "file"',
  mapping: 'mapping must be a JSON object of "file header": "field name" (or null)',
  notReport: 'This job is not a general import',
  notFinished: 'The import has not finished yet',
  noRows: 'The file has no rows below its header',
};

const PreviewParamsSchema = GeneralImportParamsSchema.pick({ type: true, ownerType: true }).strict();

/** The upload's fields and file, the file held in memory (at most 50 MB) as the reader needs the whole XLSX. */
function receiveUpload(req: Request): Promise<{ fields: Record<string, string>; file: Buffer }> {
  if (!req.is('multipart/form-data')) throw badRequest(MESSAGES.notMultipart);
  let form: busboy.Busboy;
  try {
    form = busboy({ headers: req.headers, limits: { files: 1, fileSize: FILE_BYTES, fields: 10, fieldSize: 256 * 1024 } });
  } catch {
    // A multipart type without a boundary: busboy cannot start, and the client sent no readable form.
    throw badRequest(MESSAGES.notMultipart);
  }
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const parts: Buffer[] = [];
    let file: Promise<Buffer> | null = null;
    form.on('field', (name, value) => (fields[name] = value));
    form.on('file', (name, stream) => {
      if (name !== 'file' || file) {
        discardPart(stream);
        return;
      }
      file = new Promise((done, fail) => {
        stream.on('data', (chunk: Buffer) => parts.push(chunk));
        stream.on('limit', () => fail(payloadTooLarge(MESSAGES.tooLarge)));
        stream.on('error', fail);
        stream.on('end', () => done(Buffer.concat(parts)));
      });
      file.catch(() => undefined);
    });
    form.on('close', () => {
      if (!file) reject(badRequest(MESSAGES.noFile));
      else file.then((bytes) => resolve({ fields, file: bytes }), reject);
    });
    form.on('error', (error: Error) => reject(badRequest(`The upload could not be read: ${error.message}`)));
    whenClientLeaves(req, () => reject(badRequest('The upload could not be read: the client went away')));
    req.pipe(form);
  });
}

function paramsOf(fields: Record<string, string>): GeneralImportParams {
  let mapping: unknown;
  if (fields.mapping !== undefined && fields.mapping !== '') {
    try {
      mapping = JSON.parse(fields.mapping);
    } catch {
      throw badRequest(MESSAGES.mapping);
    }
    if (typeof mapping !== 'object' || mapping === null || Array.isArray(mapping)) throw badRequest(MESSAGES.mapping);
  }
  return parseInput(GeneralImportParamsSchema, {
    type: fields.type,
    ...(mapping ? { mapping } : {}),
    ...(fields.mode ? { mode: fields.mode } : {}),
    ...(fields.key ? { key: fields.key } : {}),
    ...(fields.dryRun ? { dryRun: fields.dryRun === 'true' || fields.dryRun === '1' } : {}),
    ...(fields.ownerType ? { ownerType: fields.ownerType } : {}),
    ...(fields.ownerColumn ? { ownerColumn: fields.ownerColumn } : {}),
  });
}

export function generalImportRouter(): Router {
  const router = Router();
  router.post('/imports', async (req, res) => {
    const actor = actorOf(req);
    requireRole(actor, 'staff');
    if (Number(req.get('content-length') ?? 0) > FILE_BYTES + 256 * 1024) throw payloadTooLarge(MESSAGES.tooLarge);
    const { fields, file } = await receiveUpload(req);
    const params = paramsOf(fields);
    const { header } = await readTable(file);
    const mapping = resolveMapping(params.type, header, params.mapping);
    if (!mapping.ok) throw badRequest(mapping.message);
    const id = await startImportJob(
      req.ctx,
      actor,
      params as unknown as Record<string, never>,
      { format: 'csv', bytes: file },
      'general-import',
    );
    res.status(202).json(await getJob(req.ctx, id));
  });
  router.post('/imports/preview', async (req, res) => {
    const actor = actorOf(req);
    requireRole(actor, 'staff');
    if (Number(req.get('content-length') ?? 0) > FILE_BYTES + 256 * 1024) throw payloadTooLarge(MESSAGES.tooLarge);
    const { fields, file } = await receiveUpload(req);
    const params = parseInput(PreviewParamsSchema, {
      type: fields.type,
      ...(fields.ownerType ? { ownerType: fields.ownerType } : {}),
    });
    const preview = await previewGeneralImport(req.ctx, actor, await readTable(file), params.type, params.ownerType);
    if (preview.rowCount === 0) throw badRequest(MESSAGES.noRows);
    res.json(preview);
  });
  router.get('/imports/:id/report.csv', async (req, res) => {
    const id = Number(req.params.id);
    if (!Number.isInteger(id) || id < 1) throw badRequest('A job id is a whole number above 0');
    const job = await getJob(req.ctx, id);
    if (job.type !== 'general-import') throw notFound(MESSAGES.notReport);
    if (!job.result) throw badRequest(MESSAGES.notFinished);
    const rows = (job.result.report ?? []) as Array<[number, string, string]>;
    res.type('text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="import-${id}-report.csv"`);
    res.send(`\uFEFF${csvRecord(['row', 'outcome', 'message'])}${rows.map((row) => csvRecord(row.map(String))).join('')}`);
  });
  return router;
}
