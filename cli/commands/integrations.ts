import { Option, type Command } from 'commander';
import { listAudiences, testMailchimp, testWordPress } from '@services/integrations/service.js';
import { CONTACT_OWNER_TYPES, RECORD_TYPE_INFO, SYNC_KINDS, syncedTypeOf, type SyncKind } from '@shared/record-types.js';
import { PushOptionsSchema } from '@services/newsletter/service.js';
import { describePush, type PushResult } from '@shared/schemas/newsletter.js';
import { SyncBusyError } from '@services/sync/service.js';
import { runJobHere } from '@services/jobs/service.js';
import { parseInput } from '@services/validate.js';
import { cliActor } from '@services/context.js';
import type { CommandRegistrar } from '../program.js';
import { isAppError } from '@services/errors.js';
import { printable, printJson } from '../output.js';
import { CliExit, EXIT, withContext, type CliIO } from '../runtime.js';
import type { SyncResult } from '@shared/schemas/integrations.js';

/** 'run clubs': how a sync's lines name what it read. */
const syncedNouns = (kind: SyncKind) => RECORD_TYPE_INFO[syncedTypeOf(kind)].pluralNoun;

/**
 * `pacer sync …`, `pacer newsletter push`, `pacer wordpress test`, `pacer mailchimp test|audiences`: the same
 * services as the Integrations page, for admins and cron. Exit codes: 0 ok, 1 failed, 2 bad usage or missing
 * settings, 3 finished with item problems, 4 the same sync is already running (docs/decisions/0042-sync-cli.md).
 */
const SYNC_BUSY_EXIT = 4;

/** Worst first: a failure outranks a busy lock, which outranks item problems. */
function worstExit(codes: number[]): number {
  for (const code of [EXIT.failure, EXIT.usage, SYNC_BUSY_EXIT, EXIT.partial]) if (codes.includes(code)) return code;
  return EXIT.ok;
}

function progressWriter(io: CliIO, label: string) {
  if (!io.stderr.isTTY) return { update: () => undefined, done: () => undefined };
  const width = 30;
  return {
    update(done: number, total: number) {
      const filled = total ? Math.round((done / total) * width) : width;
      io.stderr.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
    },
    done() {
      io.stderr.write('\n');
    },
  };
}

function printSyncResult(io: CliIO, result: SyncResult): void {
  io.stdout.write(`${syncedNouns(result.kind)}: ${printable(result.message)} in ${(result.durationMs / 1000).toFixed(1)} s\n`);
  for (const problem of result.errors) io.stdout.write(`  ! ${printable(problem)}\n`);
  for (const warning of result.warnings ?? []) io.stdout.write(`  ~ ${printable(warning)}\n`);
  for (const notice of result.unpublished) io.stdout.write(`  - ${printable(notice)}\n`);
}

type SyncOutcome = { kind: SyncKind; exit: number; result?: SyncResult; error?: { code: string; message: string } };

export const registerIntegrationCommands: CommandRegistrar = (program: Command, io: CliIO) => {
  program
    .command('sync')
    .description('Sync records from the content website (WordPress); safe to run from cron')
    .addArgument(program.createArgument('<kind>', 'what to sync').choices([...SYNC_KINDS, 'all']))
    .option('--full', 'read every published post, not only those changed since the last sync')
    .option('--dry-run', 'read and compare, but write nothing')
    .option('--json', 'machine-readable output')
    .addHelpText(
      'after',
      '\nExit codes: 0 ok, 1 failed, 2 bad usage or missing settings, 3 finished with item problems, 4 the same sync is already running.',
    )
    .action(async (kind: SyncKind | 'all', opts: { full?: boolean; dryRun?: boolean; json?: boolean }) => {
      const kinds = kind === 'all' ? [...SYNC_KINDS] : [kind];
      const outcomes = await withContext(io, async (ctx) => {
        const list: SyncOutcome[] = [];
        for (const current of kinds) {
          const progress = opts.json ? null : progressWriter(io, syncedNouns(current));
          try {
            // A job like the Sync button's (one of a kind at a time, shown on the Jobs page), run in this process.
            const result = (await runJobHere(
              ctx,
              cliActor(),
              'sync',
              { kind: current, ...(opts.full ? { full: true } : {}), ...(opts.dryRun ? { dryRun: true } : {}) },
              { onProgress: progress ? ({ done, total }) => total !== null && progress.update(done, total) : undefined },
            )) as unknown as SyncResult;
            progress?.done();
            list.push({ kind: current, result, exit: result.errors.length || result.failed ? EXIT.partial : EXIT.ok });
            if (!opts.json) printSyncResult(io, result);
          } catch (error) {
            progress?.done();
            const busy = error instanceof SyncBusyError;
            const exit = busy ? SYNC_BUSY_EXIT : isAppError(error) && error.status === 400 ? EXIT.usage : EXIT.failure;
            const message = error instanceof Error ? error.message : String(error);
            list.push({ kind: current, exit, error: { code: (error as { code?: string }).code ?? 'failed', message } });
            if (!opts.json) io.stderr.write(`${syncedNouns(current)}: ${busy ? '' : 'sync failed: '}${printable(message)}\n`);
          }
        }
        return list;
      });
      if (opts.json) {
        // A failed kind carries the one error shape; one kind that failed is that error alone.
        const body = outcomes.map((o) => ({ ...(o.result ?? { error: o.error }), kind: o.kind, exitCode: o.exit }));
        const only = outcomes[0]!;
        if (kind !== 'all' && only.error) printJson(io, { error: { ...only.error, details: { kind: only.kind, exitCode: only.exit } } });
        else printJson(io, kind === 'all' ? body : body[0]);
      }
      const exit = worstExit(outcomes.map((o) => o.exit));
      if (exit !== EXIT.ok) throw new CliExit(exit, '');
    });

  program
    .command('newsletter')
    .description('Email-marketing (Mailchimp) tasks')
    .command('push')
    .description('Push contacts that have an email to a Mailchimp audience (upserts with their tags)')
    .requiredOption('--audience <id>', 'the Mailchimp audience (list) id; see `pacer mailchimp audiences`')
    .addOption(new Option('--owner-type <type>', 'only contacts of this record type').choices([...CONTACT_OWNER_TYPES]))
    .option('--tag <tag>', 'only contacts carrying this email-marketing tag')
    .option('--dry-run', 'count the contacts that would be pushed, push nothing')
    .option('--json', 'machine-readable output')
    .action(async (opts: { audience: string; ownerType?: string; tag?: string; dryRun?: boolean; json?: boolean }) => {
      const progress = opts.json ? null : progressWriter(io, 'contacts');
      const result = await withContext(io, async (ctx) => {
        const params = parseInput(PushOptionsSchema, {
          audienceId: opts.audience,
          ownerType: opts.ownerType,
          tag: opts.tag,
          dryRun: opts.dryRun,
        });
        return (await runJobHere(ctx, cliActor(), 'newsletter', params, {
          onProgress: progress ? ({ done, total }) => total !== null && total > 0 && progress.update(done, total) : undefined,
        })) as unknown as PushResult;
      });
      if (progress && result.total && !result.dryRun) progress.done();
      if (opts.json) printJson(io, result);
      else {
        io.stdout.write(`${printable(describePush(result, opts.audience))}\n`);
        for (const problem of result.errors) io.stdout.write(`  ! ${printable(problem)}\n`);
      }
      if (result.failed) throw new CliExit(EXIT.partial, '');
    });

  program
    .command('wordpress')
    .description('The content website (WordPress)')
    .command('test')
    .description('Check the address, that it is WordPress, and the application password')
    .action(async () => {
      const result = await withContext(io, (ctx) => testWordPress(ctx));
      if (!result.success) throw new CliExit(EXIT.failure, `Connection failed: ${result.message}`);
      io.stdout.write(`${printable(result.message)}\n`);
    });

  const mailchimp = program.command('mailchimp').description('The email-marketing service (Mailchimp)');
  mailchimp
    .command('test')
    .description('Check the API key and show the account')
    .action(async () => {
      const result = await withContext(io, (ctx) => testMailchimp(ctx));
      if (!result.success || !result.data) throw new CliExit(EXIT.failure, `Connection failed: ${result.message}`);
      const { email, industry, total_subscribers } = result.data;
      io.stdout.write(
        `${printable(result.message)}\n  email: ${printable(email)}\n  industry: ${printable(industry || '-')}\n  subscribers: ${total_subscribers}\n`,
      );
    });
  mailchimp
    .command('audiences')
    .description('List the audiences (lists) with their member counts')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const audiences = await withContext(io, (ctx) => listAudiences(ctx));
      if (opts.json) {
        printJson(io, audiences);
        return;
      }
      if (audiences.length === 0) io.stdout.write('No audiences.\n');
      for (const audience of audiences)
        io.stdout.write(
          `${printable(audience.id).padEnd(14)} ${String(audience.stats.member_count).padStart(7)} members  ${printable(audience.name)}\n`,
        );
    });
};
