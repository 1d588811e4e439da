import { Option, type Command } from 'commander';
import type { CommandRegistrar } from '../program.js';
import { CliExit, EXIT, withContext, type CliIO } from '../runtime.js';
import { cliActor } from '@services/context.js';
import { createUser, listUsers, setPassword, updateUserByEmail } from '@services/users/service.js';
import { ROLES, type Role } from '@shared/roles.js';
import { readPassword } from '../prompt.js';

const roleOption = () => new Option('--role <role>', `admin, staff or viewer`).choices(ROLES);

async function passwordFrom(io: CliIO, given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  if (!io.stdin.isTTY) throw new CliExit(EXIT.usage, 'No --password given and standard input is not a terminal to ask on.');
  const first = await readPassword(io, 'Password: ');
  const second = await readPassword(io, 'Repeat password: ');
  if (first !== second) throw new CliExit(EXIT.usage, 'The passwords do not match.');
  return first;
}

export const registerUsersCommands: CommandRegistrar = (program: Command, io: CliIO) => {
  const users = program.command('users').description('Manage staff accounts');

  users
    .command('create')
    .description('Create a user (asks for the password when --password is omitted)')
    .requiredOption('--email <email>', 'sign-in email')
    .option('--password <password>', 'password (at least 8 characters)')
    .option('--first-name <name>', 'first name', 'Admin')
    .option('--last-name <name>', 'last name', 'User')
    .addOption(roleOption().default('staff'))
    .action(async (opts: { email: string; password?: string; firstName: string; lastName: string; role: Role }) => {
      const password = await passwordFrom(io, opts.password);
      const user = await withContext(io, (ctx) =>
        createUser(ctx, { email: opts.email, password, firstName: opts.firstName, lastName: opts.lastName, role: opts.role }, cliActor()),
      );
      io.stdout.write(`Created user ${user.email} (id ${user.id}, ${user.role})\n`);
    });

  users
    .command('list')
    .description('List users')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      const list = await withContext(io, (ctx) => listUsers(ctx, cliActor()));
      if (opts.json) {
        io.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
        return;
      }
      if (list.length === 0) io.stdout.write('No users yet.\n');
      for (const user of list) {
        io.stdout.write(
          `${String(user.id).padStart(4)}  ${user.email.padEnd(36)} ${`${user.firstName} ${user.lastName}`.padEnd(24)} ${user.role.padEnd(7)} ${user.isActive ? 'active  ' : 'inactive'}  last login: ${user.lastLogin ?? 'never'}\n`,
        );
      }
    });

  users
    .command('set-password')
    .description("Set a user's password (signs them out everywhere)")
    .requiredOption('--email <email>', 'the user')
    .option('--password <password>', 'new password (asked for when omitted)')
    .action(async (opts: { email: string; password?: string }) => {
      const password = await passwordFrom(io, opts.password);
      await withContext(io, (ctx) => setPassword(ctx, opts.email, password));
      io.stdout.write(`Password changed for ${opts.email}\n`);
    });

  users
    .command('deactivate')
    .description('Stop a user from signing in (ends their sessions at once)')
    .requiredOption('--email <email>', 'the user')
    .action(async (opts: { email: string }) => {
      await withContext(io, (ctx) => updateUserByEmail(ctx, cliActor(), opts.email, { isActive: false }));
      io.stdout.write(`Deactivated ${opts.email}\n`);
    });

  users
    .command('activate')
    .description('Let a deactivated user sign in again')
    .requiredOption('--email <email>', 'the user')
    .action(async (opts: { email: string }) => {
      await withContext(io, (ctx) => updateUserByEmail(ctx, cliActor(), opts.email, { isActive: true }));
      io.stdout.write(`Activated ${opts.email}\n`);
    });

  users
    .command('set-role')
    .description("Change a user's role (ends their sessions, so it applies at once)")
    .requiredOption('--email <email>', 'the user')
    .addOption(roleOption().makeOptionMandatory())
    .action(async (opts: { email: string; role: Role }) => {
      await withContext(io, (ctx) => updateUserByEmail(ctx, cliActor(), opts.email, { role: opts.role }));
      io.stdout.write(`${opts.email} is now ${opts.role}\n`);
    });
};
