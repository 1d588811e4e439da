// Which files of migrations/ are migrations, and in what order: read by migrations/found.ts when the code runs from
// its sources (tsx, vitest) and by the build's plugin below, which puts the same list into the bundled server and
// CLI. Adding a migration is adding its file (docs/decisions/0005-migrations-listed-in-code.md).
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** A migration's file: its UTC timestamp (yyyymmddhhmmss), an underscore and what it does in snake case. */
const MIGRATION_FILE = /^(\d{14}_[a-z0-9_]+)\.ts$/;

/**
 * The names of the migrations in `dir`, oldest first. A .ts file starting with a digit that is not named like a
 * migration is refused rather than skipped, so a misnamed migration never goes unapplied without a word; files
 * starting with a letter (index.ts, found.ts, helpers.ts) are the folder's own code.
 */
export function migrationNames(dir) {
  const names = [];
  for (const file of readdirSync(dir)) {
    if (!/^\d.*\.ts$/.test(file)) continue;
    const match = MIGRATION_FILE.exec(file);
    if (!match) throw new Error(`${path.join(dir, file)} is not named like a migration: <yyyymmddhhmmss>_<what_it_does>.ts`);
    names.push(match[1]);
  }
  return names.sort();
}

/**
 * The esbuild plugin that replaces migrations/found.ts, which reads the folder at run time, with a module importing
 * each migration statically: the bundle carries them, and a built server needs no migrations/ folder beside it.
 */
export function migrationListPlugin() {
  return {
    name: 'migration-list',
    setup(build) {
      build.onLoad({ filter: /[\\/]migrations[\\/]found\.ts$/ }, (args) => {
        const dir = path.dirname(args.path);
        const names = migrationNames(dir);
        const imports = names.map((name, i) => `import * as m${i} from './${name}.js';`);
        const list = names.map((name, i) => `[${JSON.stringify(name)}, m${i}]`).join(', ');
        return {
          contents: `${imports.join('\n')}\nexport async function foundMigrations() { return [${list}]; }\n`,
          loader: 'ts',
          resolveDir: dir,
          // Watch mode rebuilds when a migration is added.
          watchDirs: [dir],
        };
      });
    },
  };
}
