import { Argument, Option, type Command } from 'commander';
import type { CommandRegistrar } from '../program.js';
import { CliExit, EXIT, withContext, type CliIO } from '../runtime.js';
import { resetSecondFactors } from '@services/auth/second-factor.js';
import { setRequireTwoFactor } from '@services/auth/security-settings.js';
import { cliActor } from '@services/context.js';
import { createUser, listUsers, setPassword, updateUserByEmail } from '@services/users/service.js';
import { ROLES, type Role } from '@shared/roles.js';
import { printable, printJson } from '../output.js';
import { readFirstLine, readPassword } from '../prompt.js';

const roleOption = () => new Option('--role <role>', `admin, staff or viewer`).choices(ROLES);

const passwordStdinOption = () =>
  new Option('--password-stdin', 'read the password from the first line of standard input').conflicts('password');

async function passwordFrom(io: CliIO, given: string | undefined, fromStdin: boolean | undefined): Promise<string> {
  if (given !== undefined) return given;
  if (fromStdin) {
    const line = await readFirstLine(io);
    if (line === '') throw new CliExit(EXIT.usage, 'The password read from standard input is empty.');
    return line;
  }
  if (!io.stdin.isTTY)
    throw new CliExit(EXIT.usage, 'No --password or --password-stdin given and standard input is not a terminal to ask on.');
  const first = await readPassword(io, 'Password: ');
  const second = await readPassword(io, 'Repeat password: ');
  if (first !== second) throw new CliExit(EXIT.usage, 'The passwords do not match.');
  return first;
}

export const registerUsersCommands: CommandRegistrar = (program: Command, io: CliIO) => {
  const users = program.command('users').description('Manage staff accounts');

  users
    .command('create')
    .description(
      'Create a user (asks for the password when neither --password nor --password-stdin is given); ' +
        'without --role an admin while the database has no active admin, else staff',
    )
    .requiredOption('--email <email>', 'sign-in email')
    .option('--password <password>', 'password (at least 8 characters)')
    .addOption(passwordStdinOption())
    .option('--first-name <name>', 'first name (empty when omitted)')
    .option('--last-name <name>', 'last name (empty when omitted)')
    .addOption(roleOption())
    .option('--json', 'machine-readable output')
    .action(
      async (opts: {
        email: string;
        password?: string;
        passwordStdin?: boolean;
        firstName?: string;
        lastName?: string;
        role?: Role;
        json?: boolean;
      }) => {
        const password = await passwordFrom(io, opts.password, opts.passwordStdin);
        const user = await withContext(io, (ctx) =>
          createUser(
            ctx,
            { email: opts.email, password, firstName: opts.firstName, lastName: opts.lastName, role: opts.role },
            cliActor(),
            { firstAdmin: true },
          ),
        );
        if (opts.json) {
          printJson(io, user);
          return;
        }
        io.stdout.write(`Created user ${printable(user.email)} (id ${user.id}, ${user.role})\n`);
        if (user.role === 'admin' && !opts.role) io.stdout.write('It is an admin: the database had no active admin.\n');
      },
    );

  users
    .command('list')
    .description('List users')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const list = await withContext(io, (ctx) => listUsers(ctx, cliActor()));
      if (opts.json) {
        printJson(io, list);
        return;
      }
      if (list.length === 0) io.stdout.write('No users yet.\n');
      for (const user of list) {
        io.stdout.write(
          `${String(user.id).padStart(4)}  ${printable(user.email).padEnd(36)} ${printable(`${user.firstName} ${user.lastName}`).padEnd(24)} ${user.role.padEnd(7)} ${user.isActive ? 'active  ' : 'inactive'}  last login: ${user.lastLogin ?? 'never'}\n`,
        );
      }
    });

  users
    .command('set-password')
    .description("Set a user's password (signs them out everywhere)")
    .requiredOption('--email <email>', 'the user')
    .option('--password <password>', 'new password (asked for when neither this nor --password-stdin is given)')
    .addOption(passwordStdinOption())
    .action(async (opts: { email: string; password?: string; passwordStdin?: boolean }) => {
      const password = await passwordFrom(io, opts.password, opts.passwordStdin);
      await withContext(io, (ctx) => setPassword(ctx, opts.email, password));
      io.stdout.write(`Password changed for ${printable(opts.email)}\n`);
    });

  users
    .command('deactivate')
    .description('Stop a user from signing in (ends their sessions at once)')
    .requiredOption('--email <email>', 'the user')
    .action(async (opts: { email: string }) => {
      await withContext(io, (ctx) => updateUserByEmail(ctx, cliActor(), opts.email, { isActive: false }));
      io.stdout.write(`Deactivated ${printable(opts.email)}\n`);
    });

  users
    .command('activate')
    .description('Let a deactivated user sign in again')
    .requiredOption('--email <email>', 'the user')
    .action(async (opts: { email: string }) => {
      await withContext(io, (ctx) => updateUserByEmail(ctx, cliActor(), opts.email, { isActive: true }));
      io.stdout.write(`Activated ${printable(opts.email)}\n`);
    });

  users
    .command('set-role')
    .description("Change a user's role (ends their sessions, so it applies at once)")
    .requiredOption('--email <email>', 'the user')
    .addOption(roleOption().makeOptionMandatory())
    .action(async (opts: { email: string; role: Role }) => {
      await withContext(io, (ctx) => updateUserByEmail(ctx, cliActor(), opts.email, { role: opts.role }));
      io.stdout.write(`${printable(opts.email)} is now ${opts.role}\n`);
    });

  users
    .command('reset-2fa')
    .description("Remove a user's second factors and recovery codes (a lost phone): they sign in with the password alone")
    .argument('<email>', 'the user')
    .action(async (email: string) => {
      const { email: address, hadSecondFactor } = await withContext(io, (ctx) => resetSecondFactors(ctx, cliActor(), { email }));
      io.stdout.write(
        hadSecondFactor
          ? `Two-factor sign-in reset for ${printable(address)}: they sign in with their password and set it up again.\n`
          : `${printable(address)} had no second factor; nothing to reset.\n`,
      );
    });

  users
    .command('require-2fa')
    .description('Require two-factor sign-in for everyone (on), or stop requiring it (off)')
    .addArgument(new Argument('<state>', 'on or off').choices(['on', 'off']))
    .action(async (state: 'on' | 'off') => {
      await withContext(io, (ctx) => setRequireTwoFactor(ctx, cliActor(), { requireTwoFactor: state === 'on' }));
      io.stdout.write(
        state === 'on'
          ? 'Two-factor sign-in is now required: users without it are sent to set it up.\n'
          : 'Two-factor sign-in is no longer required.\n',
      );
    });
};
