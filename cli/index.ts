// The CLI run from source (`node --import tsx cli/index.ts …`). The build bundles command-line.ts on its own and
// dist/cli.js (launch.ts) starts it from there.
import { runCommandLine } from './command-line.js';

await runCommandLine();
