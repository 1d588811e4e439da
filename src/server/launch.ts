// dist/server.js: starts the web server from its bundle, dist/server-bundle.cjs, compiled with the code cache the
// build made for it (code-cache.ts). The build runs it once as `node dist/server.js --write-code-cache`.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { loadBundle, writeCodeCache } from './code-cache.js';

const bundleFile = fileURLToPath(new URL('./server-bundle.cjs', import.meta.url));

if (process.argv[2] === '--write-code-cache') {
  writeCodeCache(bundleFile);
  // The bundle's modules may have set timers up; the cache is written, so nothing is left to wait for.
  process.exit(0);
}
// Node maps stack traces through source maps (--enable-source-maps) only in modules it loads itself.
const bundle = (process.sourceMapsEnabled ? createRequire(import.meta.url)(bundleFile) : loadBundle(bundleFile).exports) as {
  runServer: () => void;
};
bundle.runServer();
