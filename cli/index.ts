import pino from 'pino';
import { exitOnFatalError } from '@context/fatal.js';
import { createLogger } from '@context/logger.js';
import { runCli } from './program.js';
import { processIO } from './runtime.js';

// Failures of a command are mapped to exit codes by runCli; this catches only what escapes every handler.
exitOnFatalError(createLogger({ logLevel: 'fatal' }, pino.destination({ dest: 2, sync: true })));
const code = await runCli(process.argv.slice(2), processIO());
process.exitCode = code;
