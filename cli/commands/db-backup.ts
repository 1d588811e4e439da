import { Option, type Command } from 'commander';
import { rmSync } from 'node:fs';
import { createBackup } from '@services/backup/backup.js';
import { lowerOwnPriority } from '@services/background/child.js';
import { restoreBackup, verifyBackup, type VerifyReport } from '@services/backup/restore.js';
import { confirmOrRefuse } from '../confirm.js';
import { printable, printJson } from '../output.js';
import { CliExit, EXIT, withContext, type CliIO } from '../runtime.js';
import { reindexProgress } from './db.js';

const sizeOf = (bytes: number) =>
  bytes >= 1 << 30
    ? `${(bytes / (1 << 30)).toFixed(1)} GB`
    : bytes >= 1 << 20
      ? `${(bytes / (1 << 20)).toFixed(1)} MB`
      : `${Math.max(1, Math.round(bytes / 1024))} KB`;

const rowsIn = (tables: Record<string, number>) => Object.values(tables).reduce((sum, rows) => sum + rows, 0);

/** A refused archive: every problem on stderr (each naming its part), exit 1. */
function refuse(io: CliIO, report: VerifyReport, json: boolean): never {
  if (json) printJson(io, { ok: false, file: report.file, problems: report.problems });
  throw new CliExit(
    EXIT.failure,
    `The archive was refused and nothing was changed:\n${report.problems.map((problem) => `  - ${printable(problem)}`).join('\n')}`,
    'bad_archive',
  );
}

/**
 * Runs `work`; stopped by SIGTERM or SIGINT meanwhile (a cancelled backup job kills its child), the temporary files it
 * noted are removed before the process exits, so no partial archive stays behind.
 */
async function withTemporaryPathsRemovedOnSignal<T>(work: (noteTemporary: (paths: string[]) => void) => Promise<T>): Promise<T> {
  let temporary: string[] = [];
  const stop = (signal: NodeJS.Signals) => {
    for (const file of temporary) rmSync(file, { recursive: true, force: true });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    return await work((paths) => {
      temporary = paths;
    });
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
}

/** `pacer db backup`, `pacer db restore` and `pacer db verify` (docs/upgrading.md). */
export function registerBackupCommands(db: Command, io: CliIO): void {
  db.command('backup')
    .description('Write one .tar.gz with a consistent snapshot of the database and the stored files (while the app runs)')
    .option('--out <file>', 'the archive to write (default: a new pacer-backup-<time>.tar.gz in BACKUP_DIR)')
    .addOption(
      new Option('--keep <n>', 'then keep only the newest N archives in that folder').argParser((value: string) => {
        if (!/^\d{1,5}$/.test(value) || Number(value) < 1) throw new CliExit(EXIT.usage, '--keep must be a whole number of at least 1');
        return Number(value);
      }),
    )
    .option('--json', 'machine-readable output')
    // The backup job's child process (src/services/background/child.ts): progress and the result as JSON lines.
    .addOption(new Option('--progress-lines', 'progress and the result as JSON lines on stdout').hideHelp())
    .action(async (opts: { out?: string; keep?: number; json?: boolean; progressLines?: boolean }) => {
      const progress = reindexProgress(io.stderr);
      const line = (message: Record<string, unknown>) => io.stdout.write(`${JSON.stringify(message)}\n`);
      const result = await withContext(io, (ctx) => {
        // Next to a web server on the same cores it would take their CPU: it takes what they leave (BACKUP_NICE).
        const nice = lowerOwnPriority(ctx.config.backup.nice, ctx.log);
        if (opts.progressLines) line({ started: { pid: process.pid, nice } });
        return withTemporaryPathsRemovedOnSignal((noteTemporary) =>
          createBackup(ctx, {
            out: opts.out,
            dir: ctx.config.backup.dir,
            keep: opts.keep,
            onTemporaryPaths: (paths) => {
              noteTemporary(paths);
              if (opts.progressLines) line({ temporary: paths });
            },
            onProgress: (step) => {
              progress.update(step);
              if (opts.progressLines) line({ progress: step });
            },
          }),
        );
      });
      const took = progress.done();
      if (opts.progressLines) {
        line({ result });
        return;
      }
      if (opts.json) {
        printJson(io, result);
        return;
      }
      io.stdout.write(
        `Backup written in ${took}: ${printable(result.file)} (${sizeOf(result.bytes)}, ${rowsIn(result.tables).toLocaleString('en')} rows in ` +
          `${Object.keys(result.tables).length} tables, ${result.files} stored files)\n`,
      );
      if (result.missingFiles.length)
        io.stderr.write(`Warning: ${result.missingFiles.length} stored file(s) named by rows were missing and are not in the archive.\n`);
      if (result.removed.length) io.stdout.write(`Removed ${result.removed.length} older archive(s).\n`);
    });

  db.command('verify')
    .description('Check a backup archive without writing anything: checksums, manifest, readable rows')
    .argument('<file>', 'the archive')
    .option('--json', 'machine-readable output')
    .action(async (file: string, opts: { json?: boolean }) => {
      const progress = reindexProgress(io.stderr);
      const report = await verifyBackup(file, (step) => progress.update(step));
      progress.done();
      if (!report.ok || !report.manifest) refuse(io, report, Boolean(opts.json));
      const manifest = report.manifest;
      if (opts.json) {
        printJson(io, { ok: true, file: report.file, parts: report.parts, manifest });
        return;
      }
      io.stdout.write(
        `The archive is sound: ${report.parts} parts checked, ${rowsIn(manifest.tables).toLocaleString('en')} rows in ` +
          `${Object.keys(manifest.tables).length} tables, made ${manifest.createdAt} by Pacer ${printable(manifest.pacerVersion)} ` +
          `on ${manifest.dbKind} at migration ${printable(manifest.latestMigration)}.\n`,
      );
    });

  db.command('restore')
    .description('Replace the database and put the stored files back from a backup archive (checked first); asks first')
    .argument('<file>', 'the archive')
    .option('--yes', 'do not ask (required when standard input is not a terminal)')
    .option('--json', 'machine-readable output')
    .action(async (file: string, opts: { yes?: boolean; json?: boolean }) => {
      const progress = reindexProgress(io.stderr);
      const result = await withContext(
        io,
        async (ctx) => {
          const report = await verifyBackup(file, (step) => progress.update(step));
          if (!report.ok || !report.manifest) refuse(io, report, Boolean(opts.json));
          const manifest = report.manifest;
          io.stderr.write(
            `This replaces the whole database (${printable(ctx.config.databaseUrl.replace(/\/\/[^@/]*@/, '//'))}) with the backup made ` +
              `${manifest.createdAt} (${rowsIn(manifest.tables).toLocaleString('en')} rows, ${Object.keys(manifest.parts).length - Object.keys(manifest.tables).length} stored files).\n`,
          );
          await confirmOrRefuse(io, { yes: opts.yes, question: 'Replace the database? Changes made since the backup are lost.' });
          return restoreBackup(ctx, file, { verified: report, onProgress: (step) => progress.update(step) });
        },
        { schema: 'any' },
      );
      const took = progress.done();
      if (opts.json) {
        printJson(io, result);
        return;
      }
      io.stdout.write(
        `Restored in ${took}: ${rowsIn(result.tables).toLocaleString('en')} rows in ${Object.keys(result.tables).length} tables, ` +
          `${result.files.written + result.files.alreadyThere} stored files; ${result.migrationsApplied.length} migration(s) applied since the backup.\n`,
      );
    });
}
