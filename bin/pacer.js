#!/usr/bin/env node
// The `pacer` command runs the bundled CLI. `npm run build` (or `npm start`) builds it; on a fresh install that has
// not been built yet, the first `pacer` builds it here (installing builds nothing, so `npm ci --omit=dev` suffices).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
if (!existsSync(cli)) {
  process.stderr.write('The CLI is not built yet: building it first (npm run build)…\n');
  execFileSync(process.execPath, ['esbuild.config.mjs'], { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: ['ignore', 2, 2] });
}
await import(cli);
