import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import type { Knex } from 'knex';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationSource } from '@migrations/index.js';
import { migrationListPlugin, migrationNames } from '@scripts/migration-files.mjs';

const dir = path.resolve(import.meta.dirname, '../../migrations');
const migrationFilesOnDisk = () =>
  readdirSync(dir)
    .filter((file) => /^\d.*\.ts$/.test(file))
    .map((file) => file.slice(0, -'.ts'.length))
    .sort();
const PROBE = '20991231235959_probe_added_as_a_file';

describe('the migrations are found by their file names', () => {
  const made: string[] = [];
  const tempDir = () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'pacer-migrations-'));
    made.push(folder);
    return folder;
  };
  afterEach(() => {
    for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it('in the order of their names, past the folder’s own code, refusing a misnamed one', () => {
    const folder = tempDir();
    for (const file of ['20261128130000_second.ts', '20261121000000_first.ts', 'index.ts', 'found.ts', 'helpers.ts', 'notes.md']) {
      writeFileSync(path.join(folder, file), '');
    }
    expect(migrationNames(folder)).toEqual(['20261121000000_first', '20261128130000_second']);
    writeFileSync(path.join(folder, '2026112814_missing_digits.ts'), '');
    expect(() => migrationNames(folder)).toThrow(/2026112814_missing_digits\.ts is not named like a migration/);
  });

  it('from the sources: every file of migrations/ is applied, with nothing listed by hand', async () => {
    const found = await migrationSource.getMigrations([]);
    expect(found.map(([name]) => name)).toEqual(migrationFilesOnDisk());
    for (const entry of found) {
      const migration = await migrationSource.getMigration(entry);
      expect(typeof migration.up, entry[0]).toBe('function');
      expect(typeof migration.down, entry[0]).toBe('function');
    }
  });

  it('in the bundle: the build carries each migration, a new file included, and needs no folder at run time', async () => {
    const folder = tempDir();
    const copy = path.join(folder, 'migrations');
    mkdirSync(copy);
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts'))) copyFileSync(path.join(dir, file), path.join(copy, file));
    writeFileSync(
      path.join(copy, `${PROBE}.ts`),
      'export async function up(): Promise<void> {}\nexport async function down(): Promise<void> {}\n',
    );
    const bundle = path.join(folder, 'bundle.mjs');
    // As esbuild.config.mjs bundles the server and the CLI (its plugin, node, ESM).
    await esbuild.build({
      entryPoints: [path.join(copy, 'index.ts')],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'esm',
      logLevel: 'silent',
      plugins: [migrationListPlugin()],
    });
    rmSync(copy, { recursive: true });
    const bundled = (await import(pathToFileURL(bundle).href)) as { migrationSource: Knex.MigrationSource<[string, unknown]> };
    const names = (await bundled.migrationSource.getMigrations([])).map(([name]) => name);
    expect(names).toEqual([...migrationFilesOnDisk(), PROBE]);
  });
});
