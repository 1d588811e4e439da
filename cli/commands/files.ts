import type { Command } from 'commander';
import type { CommandRegistrar } from '../program.js';
import { CliExit, EXIT, withContext, type CliIO } from '../runtime.js';
import { checkStoredFiles, type FilesCheckReport } from '@services/files/check.js';

function printReport(io: CliIO, report: FilesCheckReport) {
  const out = (line: string) => io.stdout.write(`${line}\n`);
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
  for (const failure of report.failures) io.stderr.write(`Could not fix ${failure}\n`);
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
      if (opts.json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else printReport(io, report);
      const problems = report.bytesWithoutRow.length + report.rowsWithoutBytes.length + report.staleIncoming.length;
      if (report.fixed) {
        if (report.failures.length) throw new CliExit(EXIT.partial, '');
        return;
      }
      if (problems > 0) throw new CliExit(EXIT.failure, opts.json ? '' : 'Run `pacer files check --fix` to repair.');
    });
};
