import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { migrationSource } from '@migrations/index.js';

/**
 * The repository's migrations as history: each one in order, and whether its `up` writes rows (rather than only
 * changing the schema). Read by the upgrade test (test/integrations/upgrade-from-every-migration.test.ts) and the
 * migration benchmark (bench/migrations.ts).
 */
export interface MigrationStep {
  name: string;
  /** Its `up` updates, deletes or inserts rows, or drops a table or a column: it rewrites data, so it is timed. */
  rewritesData: boolean;
}

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../migrations');

/** A write of rows, or a drop of what holds them, in a migration's text. */
const WRITES_DATA = /\.(update|delete|del|insert|truncate)\(|dropTable|dropColumn|\b(UPDATE|DELETE FROM|INSERT INTO|DROP TABLE)\b/;

/**
 * A migration file's code (its comments left out) without its `down` (which drops what `up` made, and runs only on a rollback): from the
 * `down` function's start to the first closing brace at the start of a line, or its one-line empty body.
 */
function upText(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/export\s+(async\s+)?function\s+down\s*\([^)]*\)[^{]*\{\}/, '')
    .replace(/export\s+(async\s+)?function\s+down[\s\S]*?\n\}/, '');
}

/** Every migration of the repository, oldest first, found the way the runner finds them (migrations/found.ts). */
export async function migrationSteps(): Promise<MigrationStep[]> {
  const entries = await migrationSource.getMigrations([]);
  return entries.map((entry) => {
    const name = migrationSource.getMigrationName(entry);
    const source = readFileSync(path.join(MIGRATIONS_DIR, `${name}.ts`), 'utf8');
    return { name, rewritesData: WRITES_DATA.test(upText(source)) };
  });
}

/** The migrations applied to `db`, oldest first. */
async function appliedNames(db: Knex): Promise<string[]> {
  const [applied] = (await db.migrate.list({ migrationSource })) as [Array<{ name: string } | string>];
  return applied.map((entry) => (typeof entry === 'string' ? entry : entry.name));
}

/**
 * Applies the pending migrations one at a time until `name` is the last one applied (the database as that migration
 * left it); `each` is called with every migration applied and the milliseconds it took.
 */
export async function migrateUpTo(db: Knex, name: string, each?: (migration: string, ms: number) => void): Promise<void> {
  for (;;) {
    const applied = await appliedNames(db);
    if (applied.at(-1) === name) return;
    if (applied.includes(name)) throw new Error(`${name} is applied, and later migrations after it`);
    const started = performance.now();
    const [, names] = (await db.migrate.up({ migrationSource })) as [number, string[]];
    if (names.length === 0) throw new Error(`no migration named ${name}`);
    each?.(names[0]!, performance.now() - started);
  }
}
