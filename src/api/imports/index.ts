import express, { Router } from 'express';
import { badRequest } from '../../services/errors.js';
import { OVERFLOW_KEY, type SourceRow } from '../../services/imports/csv-records.js';
import { IMPORT_MESSAGES, type ImportKind } from '../../services/imports/rules.js';
import { importBrands, importEvents, type ImportSource } from '../../services/imports/service.js';
import { actorOf } from '../actor.js';
import type { ReadRoute } from '../reads.js';

/** GET endpoints of this area, served by /api and called in-process by server-side loaders. */
export const importsReads: ReadRoute[] = [];

/** A whole file travels as JSON rows; 50 MB holds a few hundred thousand rows, and nothing else gets this limit. */
const IMPORT_BODY_LIMIT = '50mb';
const MAX_ROWS = 500_000;

function noData(kind: ImportKind) {
  return badRequest(kind === 'events' ? IMPORT_MESSAGES.events.noDataTitle : IMPORT_MESSAGES.brands.noData);
}

/**
 * `{ data: rows, lines? }`: rows keyed by the CSV header (spec point 7). `lines`, sent by our screens, gives each
 * row's line in the file so errors name the line the user sees even when blank or dropped rows were left out;
 * without it row i is taken to be on line i + 2 (after the header).
 * Rows are copied into prototype-less objects, so a header cell such as "__proto__" is only ever a column name.
 */
export function sourceFromBody(kind: ImportKind, body: unknown): ImportSource {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw noData(kind);
  const { data, lines, ...rest } = body as { data?: unknown; lines?: unknown };
  const unknownKeys = Object.keys(rest);
  if (unknownKeys.length) throw badRequest(`Unknown field(s): ${unknownKeys.join(', ')}`);
  if (data === undefined || data === null || (Array.isArray(data) && data.length === 0)) throw noData(kind);
  if (!Array.isArray(data)) throw badRequest('data must be a list of rows', [{ path: 'data', message: 'Expected a list of rows' }]);
  if (data.length > MAX_ROWS) throw badRequest(`At most ${MAX_ROWS} rows per import; use \`pacer import\` for larger files`);
  if (lines !== undefined) {
    const valid = Array.isArray(lines) && lines.length === data.length && lines.every((line) => Number.isInteger(line) && (line as number) > 1);
    if (!valid) throw badRequest('lines must give one line number (above 1) per row', [{ path: 'lines', message: 'Expected one line number per row' }]);
  }
  const header: string[] = [];
  const seen = new Set<string>();
  const rows: SourceRow[] = data.map((item: unknown, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw badRequest(`Row ${index + 1} is not an object keyed by the CSV header`, [{ path: `data.${index}`, message: 'Expected an object' }]);
    }
    const values = Object.create(null) as Record<string, string>;
    for (const [key, value] of Object.entries(item)) {
      if (value !== null && typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
        throw badRequest(`Row ${index + 1}: ${key} must be text`, [{ path: `data.${index}.${key}`, message: 'Expected text' }]);
      }
      values[key] = value === null ? '' : String(value);
      if (!seen.has(key) && key !== OVERFLOW_KEY) {
        seen.add(key);
        header.push(key);
      }
    }
    return { line: lines ? (lines as number[])[index]! : index + 2, values };
  });
  return { header, chunks: [rows] };
}

/** Write endpoints of this area (mounted behind the signed-in check, before the general 1 MB JSON parser). */
export function importsRouter(): Router {
  const router = Router();
  const json = express.json({ limit: IMPORT_BODY_LIMIT });

  router.post('/events/bulk-import', json, async (req, res) => {
    const report = await importEvents(req.ctx, sourceFromBody('events', req.body), { actor: actorOf(req) });
    req.log.info({ event: 'events_import', rows: report.rowsRead, updated: report.updated, created: report.created, failed: report.failedRows }, 'events imported');
    res.json({ updated: report.updated, created: report.created, skipped: report.skipped, errors: report.errors });
  });

  router.post('/brands/bulk-import', json, async (req, res) => {
    const report = await importBrands(req.ctx, sourceFromBody('brands', req.body), { actor: actorOf(req) });
    req.log.info(
      { event: 'brands_import', rows: report.rowsRead, brandsCreated: report.brandsCreated, contactsCreated: report.contactsCreated, failed: report.failedRows },
      'brands imported',
    );
    res.json({ brandsCreated: report.brandsCreated, contactsCreated: report.contactsCreated, skipped: report.skipped, errors: report.errors });
  });

  return router;
}
