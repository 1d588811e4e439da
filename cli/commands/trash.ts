import type { Command } from 'commander';
import { purgeDeleted, TRASH_DAYS } from '@services/trash/service.js';
import type { CommandRegistrar } from '../program.js';
import { printable, printJson } from '../output.js';
import { CliExit, EXIT, withContext, type CliIO } from '../runtime.js';

const DURATION = /^(\d{1,5})([dh])$/;

/** "30d" or "12h" in milliseconds. */
function durationMs(text: string): number {
  const match = DURATION.exec(text.trim());
  if (!match) throw new CliExit(EXIT.usage, `--older-than must be a number of days or hours, such as 30d or 12h (got "${text}")`);
  return Number(match[1]) * (match[2] === 'd' ? 86_400_000 : 3_600_000);
}

export const registerTrashCommands: CommandRegistrar = (program: Command, io: CliIO) => {
  const trash = program.command('trash').description('Recently deleted records');
  trash
    .command('purge')
    .description('Remove for good what was deleted before the cut-off, stored file bytes included (cron-ready)')
    .option('--older-than <age>', 'how long ago, in days (30d) or hours (12h)', `${TRASH_DAYS}d`)
    .option('--dry-run', 'say what would be removed, remove nothing')
    .option('--json', 'machine-readable output')
    .action(async (opts: { olderThan: string; dryRun?: boolean; json?: boolean }) => {
      const olderThanMs = durationMs(opts.olderThan);
      const dryRun = Boolean(opts.dryRun);
      const result = await withContext(io, (ctx) => purgeDeleted(ctx, { olderThanMs, dryRun }));
      if (opts.json) {
        printJson(io, { dryRun, ...result });
        return;
      }
      const verb = dryRun ? 'Would remove' : 'Removed';
      for (const item of result.items)
        io.stdout.write(`${verb} ${item.type} ${item.entityId} "${printable(item.name)}" deleted ${item.deletedAt}\n`);
      io.stdout.write(`${verb} ${result.items.length} deleted record(s) and ${result.files} stored file(s).\n`);
    });
};
