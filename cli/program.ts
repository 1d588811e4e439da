import { Command, CommanderError } from 'commander';
import { registerDbCommands } from './commands/db.js';
import { registerExportCommands } from './commands/export.js';
import { registerFilesCommands } from './commands/files.js';
import { registerImportCommands } from './commands/import.js';
import { registerIntegrationCommands } from './commands/integrations.js';
import { readFileSync } from 'node:fs';
import { registerTokensCommands } from './commands/tokens.js';
import { registerTasksCommands } from './commands/tasks.js';
import { registerTrashCommands } from './commands/trash.js';
import { registerUsersCommands } from './commands/users.js';
import { registerWebhooksCommands } from './commands/webhooks.js';
import { registerWorkerCommands } from './commands/worker.js';
import { printJson } from './output.js';
import { EXIT, reportFailure, type CliIO } from './runtime.js';

export type CommandRegistrar = (program: Command, io: CliIO) => void;

/** The release, from package.json (one folder above this file both in cli/ and in the bundle's dist/). */
function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

function buildProgram(io: CliIO): Command {
  const program = new Command('pacer')
    .description('Pacer CRM administration: users, database, imports, syncs and newsletters')
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .version(packageVersion(), '-V, --version', 'print the version and exit')
    .exitOverride()
    .showHelpAfterError();
  for (const register of [
    registerUsersCommands,
    registerDbCommands,
    registerImportCommands,
    registerIntegrationCommands,
    registerFilesCommands,
    registerExportCommands,
    registerWorkerCommands,
    registerTrashCommands,
    registerTokensCommands,
    registerTasksCommands,
    registerWebhooksCommands,
  ]) {
    register(program, io);
  }
  return program;
}

/** Runs `pacer …` in-process and returns the exit code, so tests can drive the CLI without spawning it. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const program = buildProgram(io);
  // Known before parsing, so a usage error of a --json command is a JSON document too.
  const json = argv.includes('--json');
  if (argv.length === 0) {
    // Bare `pacer` names no command: the help, as a usage error (a script calling it so is wrong).
    program.outputHelp({ error: true });
    return EXIT.usage;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help, --version; a command group named without its command (`pacer users`) shows its help as an error.
      if (error.exitCode === 0) return EXIT.ok;
      // Commander has printed its message (and the help) to stderr already.
      if (json) printJson(io, { error: { code: 'usage', message: error.message.replace(/^error: /, '') } });
      return EXIT.usage;
    }
    return reportFailure(error, io, json);
  }
}
