import { Option } from 'commander';
import type { CommandRegistrar } from '../program.js';
import { confirmOrRefuse } from '../confirm.js';
import { printJson } from '../output.js';
import { CliExit, EXIT, withContext, type CliIO } from '../runtime.js';
import { migrationStatus, planRollback, rollbackSteps } from '@db/migrate.js';
import { migrateToLatest } from '@services/schema.js';
import { seedDemoData } from '@seeds/demo.js';
import { rebuildPaymentTotals } from '@services/payments/totals.js';
import { rebuildDerivedData, type RebuildProgress } from '@services/records/derived.js';
import { registerBackupCommands } from './db-backup.js';

/** Seconds between progress lines when stderr is not a terminal (a log file, CI). */
const LOG_EVERY_MS = 5000;
/** How often the terminal's progress line is redrawn. */
const REDRAW_EVERY_MS = 200;

const seconds = (ms: number) =>
  ms >= 60_000 ? `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;

/**
 * Shows a rebuild's progress on stderr: the phase, rows done of the total, the rate and the time left; one updating
 * line on a terminal, a line every few seconds otherwise, and a line when each phase ends.
 */
export function reindexProgress(stderr: CliIO['stderr']) {
  const started = Date.now();
  let phase = '';
  let phaseStarted = started;
  let lastShown = 0;
  let lastLine = '';
  const describe = ({ done, total }: RebuildProgress, at: number) => {
    // A phase of one step (the swap, the payment totals) has no rows to count.
    if (total <= 1) return done >= total ? phase : `${phase}…`;
    const elapsed = Math.max(at - phaseStarted, 1);
    const rate = (done * 1000) / elapsed;
    const left = rate > 0 && total > done ? `, about ${seconds(((total - done) / rate) * 1000)} left` : '';
    const percent = total > 0 ? ` (${Math.floor((done / total) * 100)} %)` : '';
    return `${phase}: ${done.toLocaleString('en')} of ${total.toLocaleString('en')}${percent}, ${Math.round(rate).toLocaleString('en')}/s${left}`;
  };
  const show = (line: string) => {
    if (stderr.isTTY) stderr.write(`\r${line.padEnd(lastLine.length)}`);
    else stderr.write(`${line}\n`);
    lastLine = line;
  };
  return {
    update(progress: RebuildProgress) {
      const at = Date.now();
      if (progress.phase !== phase) {
        if (stderr.isTTY && lastLine) stderr.write('\n');
        phase = progress.phase;
        phaseStarted = at;
        lastLine = '';
        lastShown = 0;
      }
      const finished = progress.done >= progress.total;
      if (finished || at - lastShown >= (stderr.isTTY ? REDRAW_EVERY_MS : LOG_EVERY_MS)) {
        show(`${describe(progress, at)}${finished ? ` in ${seconds(at - phaseStarted)}` : ''}`);
        lastShown = at;
      }
    },
    done() {
      if (stderr.isTTY && lastLine) stderr.write('\n');
      return seconds(Date.now() - started);
    },
  };
}

export const registerDbCommands: CommandRegistrar = (program, io) => {
  const db = program.command('db').description('Database schema and demo data');

  db.command('migrate')
    .description('Apply pending migrations')
    .action(async () => {
      const { applied, derivedDataRebuilt } = await withContext(io, (ctx) => migrateToLatest(ctx.db), { schema: 'any' });
      io.stdout.write(
        applied.length ? `Applied ${applied.length} migration(s):\n${applied.map((n) => `  ${n}\n`).join('')}` : 'Already up to date.\n',
      );
      if (derivedDataRebuilt) io.stdout.write('Search index and counts rebuilt (their definition changed).\n');
    });

  db.command('rollback')
    .description('Revert the last migration (or --step N, or --all), dropping the tables it created; asks first')
    .addOption(
      new Option('--step <n>', 'how many migrations to revert, newest first').default(1).argParser((value: string) => {
        if (!/^\d{1,4}$/.test(value) || Number(value) < 1) throw new CliExit(EXIT.usage, '--step must be a whole number of at least 1');
        return Number(value);
      }),
    )
    .addOption(new Option('--all', 'revert every applied migration (an empty database)').conflicts('step'))
    .option('--yes', 'do not ask (required when standard input is not a terminal)')
    .action(async (opts: { step: number; all?: boolean; yes?: boolean }) => {
      const reverted = await withContext(
        io,
        async (ctx) => {
          const plan = await planRollback(ctx.db, opts.all ? null : opts.step);
          if (plan.length === 0) return [];
          io.stderr.write(`This reverts ${plan.length} migration(s), newest first:\n`);
          for (const step of plan) {
            const drops = step.dropsTables.length ? `: drops ${step.dropsTables.join(', ')}` : '';
            io.stderr.write(`  ${step.migration}${drops}\n`);
          }
          await confirmOrRefuse(io, { yes: opts.yes, question: 'Revert them? Data in dropped tables is lost.' });
          return rollbackSteps(ctx.db, opts.all ? null : plan.length);
        },
        { schema: 'any' },
      );
      io.stdout.write(
        reverted.length
          ? `Reverted ${reverted.length} migration(s):\n${reverted.map((n) => `  ${n}\n`).join('')}`
          : 'Nothing to roll back.\n',
      );
    });

  db.command('status')
    .description('List applied and pending migrations')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const status = await withContext(io, (ctx) => migrationStatus(ctx.db), { schema: 'any' });
      if (opts.json) {
        printJson(io, status);
        return;
      }
      io.stdout.write(
        `Applied: ${status.applied.length}\nPending: ${status.pending.length}\n${status.pending.map((n) => `  ${n}\n`).join('')}`,
      );
    });

  db.command('reindex')
    .description('Rebuild the search index (records and contacts), the record counts and the payment totals from the rows (a repair tool)')
    .action(async () => {
      const progress = reindexProgress(io.stderr);
      await withContext(io, async (ctx) => {
        await rebuildDerivedData(ctx.db, undefined, { onProgress: (step) => progress.update(step) });
        progress.update({ phase: 'payment totals', done: 0, total: 1 });
        await rebuildPaymentTotals(ctx.db);
        progress.update({ phase: 'payment totals', done: 1, total: 1 });
      });
      io.stdout.write(`Search index and counts rebuilt in ${progress.done()}.\n`);
    });

  db.command('seed')
    .description('Load data for trying the product')
    .option('--demo', 'a believable demo data set across all six record types, with contacts')
    .action(async (opts: { demo?: boolean }) => {
      if (!opts.demo) {
        io.stderr.write('Nothing to seed: pass --demo for the demo data set.\n');
        return;
      }
      const counts = await withContext(
        io,
        async (ctx) => {
          await migrateToLatest(ctx.db);
          return seedDemoData(ctx);
        },
        { schema: 'any' },
      );
      io.stdout.write(
        `Demo data loaded: ${Object.entries(counts)
          .map(([k, v]) => `${v} ${k}`)
          .join(', ')}\n`,
      );
    });

  registerBackupCommands(db, io);
};
