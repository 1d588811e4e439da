import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Option, type Command } from 'commander';
import type { CommandRegistrar } from '../program.js';
import { printable, printJson } from '../output.js';
import { CliExit, EXIT, withContext, type CliIO } from '../runtime.js';
import { AppError } from '@services/errors.js';
import { CsvStreamReader } from '@services/imports/csv-source.js';
import { IMPORT_SAMPLES, type ImportKind } from '@shared/imports/rules.js';
import type { ImportProgress, ImportReport } from '@services/imports/service.js';
import { runJobHere } from '@services/jobs/service.js';
import { cliActor } from '@services/context.js';
import { RECORD_TYPE_INFO, type RecordType } from '@shared/record-types.js';
import { runGeneralImportCommand, withGeneralImportOptions, type GeneralImportCliOptions } from './import-general.js';

interface ImportOptions {
  dryRun?: boolean;
  json?: boolean;
  batchSize: number;
}

/**
 * Progress on stderr (stdout stays for the summary and --json): a redrawn bar on a terminal, a plain line every
 * so often otherwise (logs, cron mail).
 */
class ProgressReporter {
  private lastDraw = 0;
  private lastLineRows = 0;
  private readonly started = Date.now();

  constructor(
    private readonly io: CliIO,
    private readonly bytesRead: () => number,
    private readonly totalBytes: number | null,
  ) {}

  update(progress: ImportProgress) {
    const now = Date.now();
    if (this.io.stderr.isTTY) {
      if (now - this.lastDraw < 100) return;
      this.lastDraw = now;
      this.io.stderr.write(`\r${this.bar(progress)}`);
    } else if (progress.rowsRead - this.lastLineRows >= 10_000) {
      this.lastLineRows = progress.rowsRead;
      this.io.stderr.write(`${this.describe(progress)}\n`);
    }
  }

  finish(progress: ImportProgress) {
    if (this.io.stderr.isTTY) this.io.stderr.write(`\r${this.bar(progress, true)}\n`);
  }

  private rate(progress: ImportProgress) {
    const seconds = Math.max((Date.now() - this.started) / 1000, 0.001);
    return Math.round(progress.rowsRead / seconds);
  }

  private describe(progress: ImportProgress) {
    return `${progress.rowsRead.toLocaleString('en')} rows read, ${progress.failedRows.toLocaleString('en')} failed (${this.rate(progress).toLocaleString('en')} rows/s)`;
  }

  private bar(progress: ImportProgress, done = false) {
    const width = 30;
    if (this.totalBytes === null) return `${this.describe(progress)}   `;
    const fraction = done ? 1 : Math.min(this.bytesRead() / Math.max(this.totalBytes, 1), 1);
    const filled = Math.round(fraction * width);
    return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(fraction * 100)).padStart(3)}%  ${this.describe(progress)}   `;
  }
}

/** The file's size for the progress bar (null for standard input); a missing or unusable path is bad usage. */
async function inputSize(file: string): Promise<number | null> {
  if (file === '-') return null;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new CliExit(EXIT.usage, `${file} is not a file`);
    return info.size;
  } catch (error) {
    if (error instanceof CliExit) throw error;
    throw new CliExit(EXIT.usage, `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

function summaryLines(kind: ImportKind, report: ImportReport<object>, result: Record<string, unknown>): string[] {
  const verb = report.dryRun ? 'Dry run (nothing written): would have' : 'Import finished:';
  const counts =
    kind === 'events'
      ? `updated ${String(result.updated)} events, created ${String(result.created)} contacts`
      : `created ${String(result.brandsCreated)} brands and ${String(result.contactsCreated)} contacts`;
  const lines = [
    `${verb} ${counts}; skipped ${String(result.skipped)}.`,
    `Rows: ${report.rowsRead} read, ${report.appliedRows} applied, ${report.failedRows} failed, ${report.droppedRows} dropped (no ${kind === 'events' ? 'event_id' : 'Brand or Email'}).`,
  ];
  const errors = result.errors as string[];
  if (errors.length) lines.push('Errors:', ...errors.map((error) => `  ${error}`));
  return lines;
}

/** 0: every row applied; 3: some rows failed; 1: none applied. */
function exitCodeOf(report: ImportReport<object>): number {
  if (report.failedRows === 0) return EXIT.ok;
  return report.appliedRows > 0 ? EXIT.partial : EXIT.failure;
}

async function runImport(io: CliIO, kind: ImportKind, file: string, options: ImportOptions): Promise<void> {
  const size = await inputSize(file);
  // The stream goes to its reader in the same tick it is opened, before anything else is awaited (opening the
  // database takes a while): a read error meanwhile then fails the import instead of crashing the process.
  const csv = new CsvStreamReader(kind, file === '-' ? io.stdin : createReadStream(file));
  const progress = new ProgressReporter(io, () => csv.bytesRead, size);
  let last: ImportProgress = { rowsRead: 0, appliedRows: 0, failedRows: 0 };
  const report = await withContext(io, async (ctx) => {
    try {
      // Recorded as a job (the Jobs page shows it, and it can be cancelled there) but run here, where the file is.
      return (await runJobHere(
        ctx,
        cliActor(),
        'import',
        { kind, ...(options.dryRun ? { dryRun: true } : {}), batchSize: options.batchSize },
        {
          local: {
            open: () => csv.source(),
            expectedRows: (rowsRead) =>
              size !== null && csv.bytesRead > 0 ? Math.max(rowsRead, Math.round((rowsRead * size) / csv.bytesRead)) : null,
            onProgress: (update) => {
              last = update;
              progress.update(update);
            },
          },
        },
      )) as unknown as ImportReport<Record<string, unknown>>;
    } catch (error) {
      // A file the engine cannot read (bad header, no rows, broken quoting) means nothing (more) was imported.
      if (error instanceof AppError && error.status === 400) {
        const detail = (error.issues ?? []).map((issue) => issue.message);
        if (last.rowsRead > 0) progress.finish(last);
        // The one error shape; details say how far it got (rows before a late error may have been applied).
        if (options.json) printJson(io, { error: { code: error.code, message: error.message, details: { problems: detail, ...last } } });
        throw new CliExit(
          last.appliedRows > 0 ? EXIT.partial : EXIT.failure,
          [`Error: ${error.message}`, ...detail.map((d) => `  ${d}`)].join('\n'),
        );
      }
      // Database errors quote their whole statement (a thousand rows); the first line is the useful part.
      const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
      const applied =
        last.rowsRead > 0
          ? `Stopped after ${last.rowsRead} rows; the rows before were applied in full. Run the same import again to complete it.\n`
          : '';
      throw new CliExit(EXIT.failure, `${applied}Error: ${message.length > 300 ? `${message.slice(0, 300)}…` : message}`);
    }
  }).finally(() => csv.close());
  progress.finish(last);
  const { rowsRead, droppedRows, appliedRows, failedRows, dryRun, ...result } = report;
  if (options.json) {
    printJson(io, { ...result, rowsRead, droppedRows, appliedRows, failedRows, dryRun });
  } else {
    io.stdout.write(`${summaryLines(kind, report, result).map(printable).join('\n')}\n`);
  }
  const code = exitCodeOf(report);
  if (code !== EXIT.ok) throw new CliExit(code, '');
}

const batchOption = () =>
  new Option('--batch-size <rows>', 'rows per transaction').default(2000).argParser((value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > 50_000) throw new CliExit(EXIT.usage, '--batch-size must be a whole number from 1 to 50000');
    return n;
  });

function addImportCommand(parent: Command, io: CliIO, kind: ImportKind, description: string) {
  const command = parent
    .command(kind)
    .description(description)
    .argument('<file>', 'CSV file, or - to read standard input')
    .option('--dry-run', 'check the file and report what would change, writing nothing')
    .option('--json', 'machine-readable summary on stdout')
    .addOption(batchOption())
    .addHelpText(
      'after',
      `\nExample file:\n${IMPORT_SAMPLES[kind]}\n\nExit codes: 0 all rows applied, 3 some rows failed, 1 nothing imported, 2 bad usage.\n`,
    )
    .action((file: string, options: ImportOptions & GeneralImportCliOptions) =>
      // Without --map (or --mode/--key) the spec's import runs exactly as it always has.
      options.map || options.mode || options.key
        ? runGeneralImportCommand(io, kind === 'events' ? 'event' : 'brand', file, options)
        : runImport(io, kind, file, options),
    );
  withGeneralImportOptions(command, false);
}

/** The lists the spec's import does not cover, and contacts: the general import only. */
function addGeneralImportCommand(parent: Command, io: CliIO, type: RecordType | 'contact') {
  const name = type === 'contact' ? 'contacts' : RECORD_TYPE_INFO[type].segment;
  const command = parent
    .command(name)
    .description(`Create or update ${name} from a CSV or XLSX file (columns matched to fields by name, or by --map)`)
    .argument('<file>', 'CSV or XLSX file, or - to read standard input')
    .option('--dry-run', 'check the file and report what would change, writing nothing')
    .option('--json', 'machine-readable report on stdout')
    .addHelpText('after', '\nExit codes: 0 no row failed, 3 some rows failed, 1 nothing imported, 2 bad usage.\n')
    .action((file: string, options: GeneralImportCliOptions) => runGeneralImportCommand(io, type, file, options));
  withGeneralImportOptions(command, type === 'contact');
}

export const registerImportCommands: CommandRegistrar = (program: Command, io: CliIO) => {
  const importCommand = program.command('import').description('Bulk-import any list or contacts from a CSV or XLSX file');
  addImportCommand(importCommand, io, 'events', "Set events' websites and add their contacts (columns event_id, website, Email or Emails)");
  addImportCommand(
    importCommand,
    io,
    'brands',
    'Create brands and their contacts (columns Brand, First Name, Last Name, Email; optional Current Job)',
  );
  for (const type of ['professional', 'runclub', 'media', 'influencer', 'contact'] as const)
    addGeneralImportCommand(importCommand, io, type);
};
