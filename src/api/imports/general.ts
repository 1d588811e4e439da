import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Router, type Request } from 'express';
import { badRequest, notFound } from '@services/errors.js';
import { previewGeneralImport } from '@services/imports/general/preview.js';
import { readTable } from '@services/imports/general/read.js';
import { getJob, startImportJob } from '@services/jobs/service.js';
import { csvRecord } from '@services/records/csv-writer.js';
import { requireRole } from '@services/roles.js';
import { parseInput } from '@services/validate.js';
import { GeneralImportParamsSchema, resolveMapping, type GeneralImportParams } from '@shared/imports/general.js';
import { actorOf } from '../actor.js';
import { withUploadedFile, type UploadRules } from './upload.js';

/**
 * POST /api/imports: the general import (docs/decisions/0107-general-import.md) as multipart/form-data with the
 * fields `file` (CSV or XLSX), `type`, `mapping` (JSON), `mode`, `key`, `dryRun`, `ownerType`, `ownerColumn`. The
 * fields and the file's header are checked at once (a 400 names the problem); the rows run as a job, answered 202
 * with the job (a real run saves its mapping for the file's header, service.ts). GET /api/imports/{jobId}/report.csv
 * is the finished job's report: row, outcome, message. POST /api/imports/preview (multipart: `file`, `type`,
 * `ownerType`) answers what the mapping step shows: header, row count, samples, suggested and saved mappings.
 */

const MESSAGES = {
  mapping: 'mapping must be a JSON object of "file header": "field name" (or null)',
  notReport: 'This job is not a general import',
  notFinished: 'The import has not finished yet',
  noRows: 'The file has no rows below its header',
};

const PreviewParamsSchema = GeneralImportParamsSchema.pick({ type: true, ownerType: true }).strict();

const UPLOAD_RULES: UploadRules = {
  tooLarge: 'An import file may have at most 50 MB; use `pacer import` for larger files',
  noFile: () => badRequest('Send the file in a form field named "file"'),
  otherFile: null,
  overheadBytes: 256 * 1024,
  // The mapping, as JSON.
  fieldSize: 256 * 1024,
  fields: true,
};

/**
 * The upload's fields, and its file in a temporary file (removed when `work` ends, however it ends): the reader
 * needs the whole of an XLSX file, and the header is checked before the job starts, so the file is read twice.
 */
async function withUpload<T>(req: Request, work: (fields: Record<string, string>, file: string) => Promise<T>): Promise<T> {
  const folder = await mkdtemp(path.join(tmpdir(), 'pacer-import-'));
  try {
    const file = path.join(folder, 'upload');
    const { fields } = await withUploadedFile(req, UPLOAD_RULES, (stream) => pipeline(stream, createWriteStream(file)));
    return await work(fields, file);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
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
    const id = await withUpload(req, async (fields, file) => {
      const params = paramsOf(fields);
      const source = await readTable(createReadStream(file));
      source.close();
      const mapping = resolveMapping(params.type, source.header, params.mapping);
      if (!mapping.ok) throw badRequest(mapping.message);
      return startImportJob(
        req.ctx,
        actor,
        params as unknown as Record<string, never>,
        { format: 'csv', bytes: createReadStream(file) },
        'general-import',
      );
    });
    res.status(202).json(await getJob(req.ctx, id));
  });
  router.post('/imports/preview', async (req, res) => {
    const actor = actorOf(req);
    requireRole(actor, 'staff');
    const preview = await withUpload(req, async (fields, file) => {
      const params = parseInput(PreviewParamsSchema, {
        type: fields.type,
        ...(fields.ownerType ? { ownerType: fields.ownerType } : {}),
      });
      return previewGeneralImport(req.ctx, actor, await readTable(createReadStream(file)), params.type, params.ownerType);
    });
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
