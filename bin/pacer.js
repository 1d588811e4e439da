#!/usr/bin/env -S node --max-semi-space-size=4 --heap-growing-percent=50
// The `pacer` command runs the bundled CLI. `npm run build` (or `npm start`) builds it; on a fresh install that has
// not been built yet, the first `pacer` builds it here (installing builds nothing, so `npm ci --omit=dev` suffices).
// --max-semi-space-size=4 (MB; Node's default is 16 on 64-bit): the young generation gets a quarter of the room. An
// import allocates fast and keeps little (a batch or two), so a smaller young generation costs it little speed (~3 %),
// while the default let the heap, and the resident memory, grow past 200 MB on 100,000 rows (`npm run bench:import`,
// issue 16; 8 was enough until packed postings made imports faster). Every command started as `pacer` runs with it;
// it caps nothing (the old generation grows as needed).
// --heap-growing-percent=50: after each full collection the old generation may grow by half what survived before the
// next, where V8 lets a heap whose collections cost little grow to 4× (an import's ~30 MB that stays became 110–125
// MB of heap). Full collections of so little cost milliseconds; the general import of 100,000 contacts peaked at
// 253 MB resident without it and 182 MB with it, at the same speed (`npm run bench:general-import`, issue 34).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
if (!existsSync(cli)) {
  process.stderr.write('The CLI is not built yet: building it first (npm run build)…\n');
  execFileSync(process.execPath, ['esbuild.config.mjs'], { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: ['ignore', 2, 2] });
}
await import(cli);
