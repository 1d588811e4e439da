import type { CommandRegistrar } from '../program.js';
import { withContext } from '../runtime.js';
import { migrationStatus, rollbackLast } from '@db/migrate.js';
import { migrateToLatest } from '@services/schema.js';
import { seedDemoData } from '@seeds/demo.js';
import { rebuildPaymentTotals } from '@services/payments/totals.js';
import { rebuildDerivedData } from '@services/records/derived.js';

export const registerDbCommands: CommandRegistrar = (program, io) => {
  const db = program.command('db').description('Database schema and demo data');

  db.command('migrate')
    .description('Apply pending migrations')
    .action(async () => {
      const { applied, derivedDataRebuilt } = await withContext(io, (ctx) => migrateToLatest(ctx.db));
      io.stdout.write(
        applied.length ? `Applied ${applied.length} migration(s):\n${applied.map((n) => `  ${n}\n`).join('')}` : 'Already up to date.\n',
      );
      if (derivedDataRebuilt) io.stdout.write('Search index and counts rebuilt (their definition changed).\n');
    });

  db.command('rollback')
    .description('Revert the last batch of migrations')
    .action(async () => {
      const reverted = await withContext(io, (ctx) => rollbackLast(ctx.db));
      io.stdout.write(
        reverted.length
          ? `Reverted ${reverted.length} migration(s):\n${reverted.map((n) => `  ${n}\n`).join('')}`
          : 'Nothing to roll back.\n',
      );
    });

  db.command('status')
    .description('List applied and pending migrations')
    .action(async () => {
      const status = await withContext(io, (ctx) => migrationStatus(ctx.db));
      io.stdout.write(
        `Applied: ${status.applied.length}\nPending: ${status.pending.length}\n${status.pending.map((n) => `  ${n}\n`).join('')}`,
      );
    });

  db.command('reindex')
    .description('Rebuild the search index (records and contacts), the record counts and the payment totals from the rows (a repair tool)')
    .action(async () => {
      await withContext(io, async (ctx) => {
        await rebuildDerivedData(ctx.db);
        await rebuildPaymentTotals(ctx.db);
      });
      io.stdout.write('Search index and counts rebuilt.\n');
    });

  db.command('seed')
    .description('Load data for trying the product')
    .option('--demo', 'a believable demo data set across all six record types, with contacts')
    .action(async (opts: { demo?: boolean }) => {
      if (!opts.demo) {
        io.stderr.write('Nothing to seed: pass --demo for the demo data set.\n');
        return;
      }
      const counts = await withContext(io, async (ctx) => {
        await migrateToLatest(ctx.db);
        return seedDemoData(ctx);
      });
      io.stdout.write(
        `Demo data loaded: ${Object.entries(counts)
          .map(([k, v]) => `${v} ${k}`)
          .join(', ')}\n`,
      );
    });
};
