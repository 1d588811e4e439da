// dist/cli.js (what `pacer` runs): the CLI from its bundle, dist/cli-bundle.cjs, compiled with the code cache the
// build made for it (src/context/code-cache.ts), for node started with `pacer`'s options (bin/pacer.js).
import { fileURLToPath } from 'node:url';
import { launchBundle } from '@context/code-cache.js';

launchBundle(fileURLToPath(new URL('./cli-bundle.cjs', import.meta.url)), 'runCommandLine');
