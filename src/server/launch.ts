// dist/server.js: starts the web server from its bundle, dist/server-bundle.cjs, compiled with the code cache the
// build made for it (src/context/code-cache.ts). The build runs it once as `node dist/server.js --write-code-cache`.
import { fileURLToPath } from 'node:url';
import { launchBundle } from '@context/code-cache.js';

launchBundle(fileURLToPath(new URL('./server-bundle.cjs', import.meta.url)), 'runServer');
