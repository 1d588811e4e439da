import * as z from 'zod';
import type { SourceRow } from '@shared/imports/csv-records.js';
import type { JobType } from '@shared/schemas/jobs.js';
import { SYNC_KINDS } from '@shared/record-types.js';
import { cliActor, type Actor, type AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import { CsvStreamReader } from '../imports/csv-source.js';
import { JsonRowsReader, type RowsContainer } from '../imports/json-rows.js';
import { importBrands, importEvents, type ImportCheckpoint, type ImportProgress, type ImportSource } from '../imports/service.js';
import { pushContacts, PushOptionsSchema } from '../newsletter/service.js';
import { runSync } from '../sync/service.js';
import { backupInChildProcess } from '../backup/child-backup.js';
import { readTable } from '../imports/general/read.js';
import { runGeneralImport } from '../imports/general/service.js';
import { GeneralImportParamsSchema } from '@shared/imports/general.js';
import { parseInput } from '../validate.js';
import { readInput, readInputText } from './input.js';
import { saveJobParams, type JobRow } from './queries.js';

export interface JobProgressUpdate {
  done: number;
  total: number | null;
  phase: string | null;
}

/** An import's rows when the process running it has them at hand (the CLI reading a local file). */
export interface LocalImportInput {
  open(): Promise<ImportSource>;
  /** Rows expected in all, estimated as the file is read (null when unknown, e.g. standard input). */
  expectedRows(rowsRead: number): number | null;
  /** The engine's own counts after each batch (the CLI's bar shows them). */
  onProgress?: (progress: ImportProgress) => void;
}

interface JobRun {
  ctx: AppContext;
  job: JobRow;
  /** Called at each batch boundary: throws JobCancelledError once the job was cancelled (or taken over). */
  checkpoint(): Promise<void>;
  progress(update: Partial<JobProgressUpdate>): void;
  local?: LocalImportInput;
}

type JobHandler = (run: JobRun) => Promise<Record<string, unknown>>;

export const ImportParamsSchema = z
  .object({
    kind: z.enum(['events', 'brands'], { error: 'kind must be events or brands' }),
    dryRun: z.boolean().optional(),
    batchSize: z.number().int().min(1).max(50_000).optional(),
  })
  .strict();

export const SyncParamsSchema = z
  .object({
    kind: z.enum(SYNC_KINDS, { error: `kind must be one of: ${SYNC_KINDS.join(', ')}` }),
    full: z.boolean().optional(),
    dryRun: z.boolean().optional(),
  })
  .strict();

/** How an import's input was stored: a JSON body as sent, a CSV file as uploaded, or checked rows (`{header, rows}`). */
interface StoredImportInput {
  format: 'json' | 'rows' | 'csv';
  bytes: number;
  /** Rows, when known up front. */
  rows?: number;
  /** Where a JSON body keeps its rows. */
  container?: RowsContainer;
}

/** Rows handed to the import at a time when a JSON body is read back. */
const JSON_ROWS_PER_CHUNK = 1000;

/**
 * A stored JSON body, read back twice and never held: first for its header and line numbers (checked again by the
 * rules the request applied), then for its rows, a batch at a time.
 */
async function storedJsonSource(
  ctx: AppContext,
  job: JobRow,
  kind: 'events' | 'brands',
  container: RowsContainer,
): Promise<LocalImportInput> {
  const first = new JsonRowsReader(container);
  for await (const chunk of readInput(ctx.db, job.id)) first.write(chunk as Buffer);
  first.end();
  first.checkRows(kind, []);
  const lines = first.linesSent();
  async function* rows(): AsyncIterable<SourceRow[]> {
    const reader = new JsonRowsReader(container, { lines });
    let batch: SourceRow[] = [];
    for await (const chunk of readInput(ctx.db, job.id)) {
      reader.write(chunk as Buffer);
      batch = batch.concat(reader.takeRows());
      if (batch.length >= JSON_ROWS_PER_CHUNK) {
        yield batch;
        batch = [];
      }
    }
    reader.end();
    batch = batch.concat(reader.takeRows());
    if (batch.length) yield batch;
  }
  return { open: async () => ({ header: first.header, chunks: rows() }), expectedRows: () => first.rows };
}

/**
 * Who a job acts as: the CLI (and the schedule) as the CLI does; a user as staff, since createJob refused to
 * record the job unless its starter could make changes.
 */
const actorOf = (job: JobRow): Actor =>
  job.trigger === 'cli' || job.trigger === 'schedule' ? cliActor() : { userId: job.startedBy, source: 'web', role: 'staff' };

/** The import's rows from the stored input, with the number of rows to expect. */
async function storedImportSource(ctx: AppContext, job: JobRow, kind: 'events' | 'brands'): Promise<LocalImportInput> {
  const input = job.params.input as StoredImportInput | undefined;
  if (!input) throw badRequest('This import was started from the command line and its file is not available here; run it again');
  if (input.format === 'json') return storedJsonSource(ctx, job, kind, input.container ?? 'body');
  if (input.format === 'rows') {
    const stored = JSON.parse(await readInputText(ctx.db, job.id)) as { header: string[]; rows: SourceRow[] };
    return { open: async () => ({ header: stored.header, chunks: [stored.rows] }), expectedRows: () => stored.rows.length };
  }
  const reader = new CsvStreamReader(kind, readInput(ctx.db, job.id));
  return {
    open: () => reader.source(),
    // Rows so far scaled by the bytes still to read: exact at the end, close enough for a bar before it.
    expectedRows: (rowsRead) => (reader.bytesRead > 0 ? Math.max(rowsRead, Math.round((rowsRead * input.bytes) / reader.bytesRead)) : null),
  };
}

export const jobHandlers: Record<JobType, JobHandler> = {
  async import({ ctx, job, checkpoint, progress, local }) {
    const { input: _stored, resumeFrom, ...asked } = job.params;
    const params = ImportParamsSchema.parse(asked);
    const input = local ?? (await storedImportSource(ctx, job, params.kind));
    progress({ done: 0, total: input.expectedRows(0), phase: 'Reading the file' });
    const source = await input.open();
    progress({ phase: 'Importing' });
    const importer = params.kind === 'events' ? importEvents : importBrands;
    const report = await importer(ctx, source, {
      actor: actorOf(job),
      dryRun: params.dryRun,
      batchSize: params.batchSize,
      beforeBatch: checkpoint,
      // A run that stopped (a worker killed, a lease lost) left its counts, kept in each batch's own commit: carry on.
      resume: resumeFrom as ImportCheckpoint | undefined,
      onBatchWritten: (trx, committed) =>
        saveJobParams(trx, job.id, job.leaseOwner!, { ...job.params, resumeFrom: committed }, ctx.clock.now()),
      onProgress: (update) => {
        input.onProgress?.(update);
        progress({ done: update.rowsRead, total: input.expectedRows(update.rowsRead) });
      },
    });
    progress({ done: report.rowsRead, total: report.rowsRead, phase: 'Finished' });
    return { ...report };
  },

  async sync({ ctx, job, checkpoint, progress }) {
    const params = SyncParamsSchema.parse(job.params);
    progress({ phase: 'Reading posts' });
    const result = await runSync(ctx, params.kind, {
      actor: actorOf(job),
      full: params.full,
      dryRun: params.dryRun,
      beforePage: checkpoint,
      onProgress: ({ processed, total }) => progress({ done: processed, total }),
    });
    progress({ phase: 'Finished' });
    return { ...result };
  },

  async newsletter({ ctx, job, checkpoint, progress }) {
    const params = parseInput(PushOptionsSchema, job.params);
    progress({ phase: 'Pushing contacts' });
    const result = await pushContacts(ctx, actorOf(job), params, (done, total) => progress({ done, total }), checkpoint);
    progress({ done: result.total, total: result.total, phase: 'Finished' });
    return { ...result };
  },

  /** The general import (docs/decisions/0107-general-import.md): the stored file, its report kept in the result. */
  async 'general-import'({ ctx, job, checkpoint, progress }) {
    const { input: _stored, ...asked } = job.params;
    const params = GeneralImportParamsSchema.parse(asked);
    progress({ done: 0, total: null, phase: 'Reading the file' });
    const source = await readTable(readInput(ctx.db, job.id));
    progress({ phase: 'Importing' });
    const result = await runGeneralImport(ctx, actorOf(job), source, {
      ...params,
      onProgress: async ({ rowsRead }) => {
        progress({ done: rowsRead });
        await checkpoint();
      },
    });
    progress({ done: result.rows.length, total: result.rows.length, phase: 'Finished' });
    const { rows, ...summary } = result;
    return { ...summary, report: rows.map((row) => [row.row, row.outcome, row.message]) };
  },

  /** The scheduled backup and the Backups panel's "Back up now": a new archive in BACKUP_DIR, keeping BACKUP_KEEP. */
  // It runs in a child process at BACKUP_NICE (the archive's JSON and gzip would otherwise take the CPU the web
  // server or the worker's other jobs need): see src/services/backup/child-backup.ts.
  async backup({ ctx, checkpoint, progress }) {
    const result = await backupInChildProcess(ctx, {
      checkpoint,
      onProgress: ({ phase, done, total }) => progress({ phase, done, total }),
    });
    progress({ phase: 'Finished' });
    // Where the server keeps it is no business of the jobs list (staff read it): the panel lists the folder.
    const { file: _file, ...shown } = result;
    return shown;
  },
};
