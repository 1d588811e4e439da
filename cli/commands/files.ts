import type { Command } from 'commander';
import type { CommandRegistrar } from '../program.js';
import { printable, printJson } from '../output.js';
import { CliExit, EXIT, withContext, type CliIO } from '../runtime.js';
import { checkStoredFiles, type FilesCheckReport } from '@services/files/check.js';
import { migrateStoredFiles, type FilesMigrateReport, type MigrateProgress } from '@services/files/migrate.js';

function printReport(io: CliIO, report: FilesCheckReport) {
  const out = (line: string) => io.stdout.write(`${printable(line)}\n`);
  out(`Store: ${report.store}`);
  out(`Stored files without a row: ${report.bytesWithoutRow.length}`);
  for (const key of report.bytesWithoutRow) out(`  ${key}`);
  out(`Rows without stored bytes: ${report.rowsWithoutBytes.length}`);
  for (const row of report.rowsWithoutBytes) out(`  file ${row.id}: ${row.filePath}`);
  if (report.staleIncoming.length) out(`Unfinished upload leftovers: ${report.staleIncoming.length}`);
  if (report.recentSkipped) out(`Skipped ${report.recentSkipped} recent file(s) that may belong to an upload in progress`);
  if (report.fixed) {
    out(
      `Fixed: removed ${report.fixed.bytesRemoved} stored file(s), ${report.fixed.rowsRemoved} row(s) and ${report.fixed.incomingRemoved} upload leftover(s)`,
    );
  }
  for (const failure of report.failures) io.stderr.write(`Could not fix ${printable(failure)}\n`);
}

function printMigration(io: CliIO, report: FilesMigrateReport) {
  const out = (line: string) => io.stdout.write(`${printable(line)}\n`);
  out(`Files from ${report.from} to ${report.to}: ${report.total}`);
  out(`  copied and verified: ${report.copied}`);
  out(`  already there (same checksum): ${report.alreadyThere}`);
  if (report.onlyOnTarget) out(`  only in ${report.to} (uploaded there): ${report.onlyOnTarget}`);
  out(`  failed: ${report.failures.length}`);
  for (const failure of report.failures) out(`    ${failure.file}: ${failure.reason}`);
  if (report.failures.length) {
    out('Nothing was switched. Fix what failed and run this again: it copies only what is missing.');
  } else if (report.switched) {
    out(`STORAGE is already ${report.target}: nothing to switch.`);
  } else {
    out(
      `Every file is in ${report.to} and verified. To switch, set STORAGE=${report.target} on every web and worker process ` +
        `and restart them, then run this again to copy what was uploaded to ${report.from} meanwhile. Nothing was removed ` +
        `from ${report.from}.`,
    );
  }
}

/** Progress on stderr: each failure as it happens, and a count now and then (every file on a terminal). */
function progressPrinter(io: CliIO): (progress: MigrateProgress) => void {
  let lastPrinted = 0;
  return (progress) => {
    if (progress.outcome === 'failed') io.stderr.write(`Failed: ${printable(progress.file)}: ${printable(progress.reason ?? '')}\n`);
    const now = Date.now();
    if (io.stderr.isTTY || progress.done === progress.total || now - lastPrinted >= 1000) {
      lastPrinted = now;
      io.stderr.write(`Checked ${progress.done} of ${progress.total} files\n`);
    }
  };
}

export const registerFilesCommands: CommandRegistrar = (program: Command, io: CliIO) => {
  const files = program.command('files').description('Uploaded files');

  files
    .command('check')
    .description('Report stored files without a row and rows without stored files (exit 1 when any are found)')
    .option('--fix', 'remove stored files without a row, rows without stored files and unfinished upload leftovers')
    .option('--grace-minutes <minutes>', 'leave files younger than this alone (an upload may be committing)', '10')
    .option('--json', 'machine-readable output')
    .action(async (opts: { fix?: boolean; graceMinutes: string; json?: boolean }) => {
      if (!/^\d{1,6}$/.test(opts.graceMinutes)) throw new CliExit(EXIT.usage, '--grace-minutes must be a whole number of minutes');
      const report = await withContext(io, (ctx) =>
        checkStoredFiles(ctx, { fix: Boolean(opts.fix), graceMs: Number(opts.graceMinutes) * 60_000 }),
      );
      if (opts.json) printJson(io, report);
      else printReport(io, report);
      const problems = report.bytesWithoutRow.length + report.rowsWithoutBytes.length + report.staleIncoming.length;
      if (report.fixed) {
        if (report.failures.length) throw new CliExit(EXIT.partial, '');
        return;
      }
      if (problems > 0) throw new CliExit(EXIT.failure, opts.json ? '' : 'Run `pacer files check --fix` to repair.');
    });

  files
    .command('migrate')
    .description(
      'Copy every stored file to the other backend and verify each copy by its checksum (then switch STORAGE yourself); ' +
        'exits 3 naming the files that failed',
    )
    .requiredOption('--to <backend>', 'where the files go: s3 or local')
    .option('--json', 'machine-readable output')
    .action(async (opts: { to: string; json?: boolean }) => {
      if (opts.to !== 's3' && opts.to !== 'local') throw new CliExit(EXIT.usage, '--to must be s3 or local');
      const to = opts.to;
      const report = await withContext(io, (ctx) => migrateStoredFiles(ctx, { to, onProgress: progressPrinter(io) }));
      if (opts.json) printJson(io, report);
      else printMigration(io, report);
      if (report.failures.length) {
        const names = report.failures.map((failure) => failure.file).join(', ');
        throw new CliExit(EXIT.partial, `${report.failures.length} file(s) failed: ${names}`);
      }
    });
};
