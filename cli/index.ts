import { runCli } from './program.js';
import { processIO } from './runtime.js';

const code = await runCli(process.argv.slice(2), processIO());
process.exitCode = code;
