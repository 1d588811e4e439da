import type { Command } from 'commander';
import { sendTaskDigests } from '@services/tasks/digest.js';
import type { CommandRegistrar } from '../program.js';
import { printJson } from '../output.js';
import { CliExit, EXIT, withContext, type CliIO } from '../runtime.js';

export const registerTasksCommands: CommandRegistrar = (program: Command, io: CliIO) => {
  const tasks = program.command('tasks').description('Tasks and their reminders');
  tasks
    .command('digest')
    .description("Send today's task digest now: each user with open tasks due today or overdue, once a day (cron-ready)")
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const result = await withContext(io, (ctx) => sendTaskDigests(ctx));
      if (opts.json) printJson(io, result);
      else
        io.stdout.write(
          `Task digest for ${result.date}: sent to ${result.sent} user(s), ${result.already} had it already today` +
            (result.failed ? `, ${result.failed} could not be sent (run again to retry)` : '') +
            '.\n',
        );
      if (result.failed) throw new CliExit(EXIT.partial, `${result.failed} digest(s) could not be sent; run again to retry`);
    });
};
