#!/usr/bin/env node
// The `pacer` command runs the bundled CLI; `npm install` builds it (prepare), as does `npm run build`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
if (!existsSync(cli)) {
  process.stderr.write('The CLI is not built yet: run `npm run build` first.\n');
  process.exit(1);
}
await import(cli);
