import { Router, type Request, type RequestHandler } from 'express';
import { badRequest } from '@services/errors.js';
import { IMPORT_MESSAGES, type ImportKind } from '@shared/imports/rules.js';
import type { ImportReport } from '@services/imports/service.js';
import { startImportJob, waitForJob } from '@services/jobs/service.js';
import type { BrandsImportResult, EventsImportResult } from '@shared/imports/results.js';
import { actorOf } from '../actor.js';
import { requireRole } from '@services/roles.js';
import type { ReadRoute } from '../reads.js';
import { receiveJsonBody } from './json-body.js';
import { boundLargeBodies } from './large-bodies.js';
import { withUploadedFile, type UploadRules } from './upload.js';

/** GET endpoints of this area, served by /api (server-side loaders call the same services through src/ssr/data-source.ts). */
export const importsReads: ReadRoute[] = [];

/** The spec's imports take a CSV file of at most 50 MB, in the field "file" and no other. */
function uploadRules(kind: ImportKind): UploadRules {
  return {
    tooLarge: 'A CSV file may have at most 50 MB; use `pacer import` for larger files',
    noFile: () => badRequest(kind === 'events' ? IMPORT_MESSAGES.events.noDataTitle : IMPORT_MESSAGES.brands.noData),
    otherFile: () => badRequest('Send the CSV file in a form field named "file"'),
    overheadBytes: 64 * 1024,
    fieldSize: 1024,
    fields: false,
  };
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
  return withUploadedFile(req, uploadRules(params.kind), (file) =>
    startImportJob(req.ctx, actorOf(req), params, { format: 'csv', bytes: file }),
  ).then(({ stored }) => stored);
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
