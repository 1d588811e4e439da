import { Option, type Command } from 'commander';
import type { CommandRegistrar } from '../program.js';
import { CliExit, EXIT, withContext, type CliIO } from '../runtime.js';
import { createApiToken, listApiTokens, revokeApiToken } from '@services/api-tokens/service.js';
import { cliActor } from '@services/context.js';
import { ROLES, type Role } from '@shared/roles.js';
import { printable, printJson } from '../output.js';

/** `--expires 90d`: a whole number of days; `never` (or no flag) for a token that does not expire. */
function expiryDays(text: string | undefined): number | null {
  if (text === undefined || text === 'never') return null;
  const match = /^(\d{1,4})d$/.exec(text);
  if (!match) throw new CliExit(EXIT.usage, `--expires must be a number of days such as 90d, or never (got "${text}")`);
  return Number(match[1]);
}

export const registerTokensCommands: CommandRegistrar = (program: Command, io: CliIO) => {
  const tokens = program.command('tokens').description('Manage API tokens (Authorization: Bearer for /api)');

  tokens
    .command('create')
    .description('Create an API token and print it (the only time it is shown)')
    .requiredOption('--name <name>', 'what the token is for (named in the history and the logs)')
    .addOption(new Option('--role <role>', 'admin, staff or viewer').choices(ROLES).makeOptionMandatory())
    .option('--expires <days>', 'lifetime in days, such as 90d; never by default')
    .option('--json', 'machine-readable output')
    .action(async (opts: { name: string; role: Role; expires?: string; json?: boolean }) => {
      const expiresInDays = expiryDays(opts.expires);
      const created = await withContext(io, (ctx) => createApiToken(ctx, cliActor(), { name: opts.name, role: opts.role, expiresInDays }));
      if (opts.json) {
        printJson(io, created);
        return;
      }
      io.stdout.write(`${created.token}\n`);
      io.stderr.write(
        `Created API token ${created.id} "${printable(created.name)}" (${created.role}, ${created.expiresAt ? `expires ${created.expiresAt}` : 'never expires'}).\n` +
          'Copy it now: it is not shown again.\n',
      );
    });

  tokens
    .command('list')
    .description('List API tokens with their last use (never the tokens themselves)')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const list = await withContext(io, (ctx) => listApiTokens(ctx, cliActor()));
      if (opts.json) {
        printJson(io, list);
        return;
      }
      if (list.length === 0) io.stdout.write('No API tokens yet.\n');
      for (const token of list) {
        const lastUse = token.lastUsedAt ? `${token.lastUsedAt} from ${printable(token.lastUsedIp ?? '?')}` : 'never';
        io.stdout.write(
          `${String(token.id).padStart(4)}  ${printable(token.name).padEnd(30)} ${token.role.padEnd(7)} ${token.status.padEnd(8)} expires: ${token.expiresAt ?? 'never'}  last used: ${lastUse}\n`,
        );
      }
    });

  tokens
    .command('revoke')
    .description('Stop an API token working at once')
    .argument('<id>', 'the token (its id, from tokens list)')
    .option('--json', 'machine-readable output')
    .action(async (id: string, opts: { json?: boolean }) => {
      if (!/^\d+$/.test(id)) throw new CliExit(EXIT.usage, `The token id must be a number (got "${id}")`);
      await withContext(io, (ctx) => revokeApiToken(ctx, cliActor(), id));
      if (opts.json) printJson(io, { id: Number(id), revoked: true });
      else io.stdout.write(`Revoked API token ${id}\n`);
    });
};
