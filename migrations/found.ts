import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { migrationNames } from '@scripts/migration-files.mjs';

/**
 * Every migration of this folder as [name, module], oldest first, found by its file name. From the sources (tsx,
 * vitest) the folder is read when the runner first asks; the build replaces this module with one that imports each
 * file statically (migrationListPlugin in scripts/migration-files.mjs), so the bundled server and CLI carry them.
 */
export async function foundMigrations(): Promise<Array<[string, unknown]>> {
  const dir = import.meta.dirname;
  return Promise.all(
    migrationNames(dir).map(async (name): Promise<[string, unknown]> => [
      name,
      await import(pathToFileURL(path.join(dir, `${name}.ts`)).href),
    ]),
  );
}
