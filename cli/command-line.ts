import pino from 'pino';
import { exitOnFatalError } from '@context/fatal.js';
import { createLogger } from '@context/logger.js';
import { runCli } from './program.js';
import { processIO } from './runtime.js';

/** Runs the command named by the process's arguments; its exit code becomes the process's. */
export async function runCommandLine(): Promise<void> {
  // Failures of a command are mapped to exit codes by runCli; this catches only what escapes every handler.
  // Plain sentences on a terminal, JSON lines otherwise (LOG_FORMAT decides when set), like every command's logs.
  const logFormat = process.env.LOG_FORMAT === 'json' || process.env.LOG_FORMAT === 'pretty' ? process.env.LOG_FORMAT : undefined;
  const destination = pino.destination({ dest: 2, sync: true });
  exitOnFatalError(createLogger({ logLevel: 'fatal', logFormat }, destination, Boolean(process.stderr.isTTY)));
  process.exitCode = await runCli(process.argv.slice(2), processIO());
}
