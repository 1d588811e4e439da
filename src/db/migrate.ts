import type { Knex } from 'knex';
import { migrationSource } from '@migrations/index.js';

/** Applies the pending migrations (schema only: see migrateToLatest in src/services/schema.ts for the whole step). */
export async function applyMigrations(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}

/** Reverts the last batch (the schema tests walk the history back with it). */
export async function rollbackLast(db: Knex): Promise<string[]> {
  const [, reverted] = (await db.migrate.rollback({ migrationSource })) as [number, string[]];
  return reverted;
}

/** A migration a rollback would revert, with the tables its revert drops (those its `up` creates, as far as known). */
interface RollbackStep {
  migration: string;
  dropsTables: string[];
}

const CREATED_TABLE = /createTable\(\s*['"`]([\w]+)['"`]/g;

/**
 * The last `count` applied migrations (all of them when count is null), newest first: what `rollbackSteps` would
 * revert. Each names the tables its `up` creates and that exist now, which its `down` drops.
 */
export async function planRollback(db: Knex, count: number | null): Promise<RollbackStep[]> {
  const { applied } = await migrationStatus(db);
  const names = applied
    .slice()
    .reverse()
    .slice(0, count ?? applied.length);
  const byName = new Map((await migrationSource.getMigrations([])).map((entry) => [migrationSource.getMigrationName(entry), entry]));
  const steps: RollbackStep[] = [];
  for (const migration of names) {
    const entry = byName.get(migration);
    const source = entry ? String((await migrationSource.getMigration(entry)).up) : '';
    const created = [...new Set([...source.matchAll(CREATED_TABLE)].map((match) => match[1]!))];
    const existing: string[] = [];
    for (const table of created) if (await db.schema.hasTable(table)) existing.push(table);
    steps.push({ migration, dropsTables: existing });
  }
  return steps;
}

/** Reverts the last `count` applied migrations one at a time, newest first; returns their names. */
export async function rollbackSteps(db: Knex, count: number | null): Promise<string[]> {
  if (count === null) {
    const [, reverted] = (await db.migrate.rollback({ migrationSource }, true)) as [number, string[]];
    return reverted;
  }
  const reverted: string[] = [];
  for (let step = 0; step < count; step++) {
    const [, names] = (await db.migrate.down({ migrationSource })) as [number, string[]];
    if (names.length === 0) break;
    reverted.push(...names);
  }
  return reverted;
}

export async function migrationStatus(db: Knex): Promise<{ applied: string[]; pending: string[] }> {
  const [applied, pending] = (await db.migrate.list({ migrationSource })) as [Array<{ name: string } | string>, Array<[string, unknown]>];
  return {
    applied: applied.map((entry) => (typeof entry === 'string' ? entry : entry.name)),
    pending: pending.map(([name]) => name),
  };
}

/** Every migration this release knows, in the order they run. */
export async function knownMigrationNames(): Promise<string[]> {
  return (await migrationSource.getMigrations([])).map((entry) => migrationSource.getMigrationName(entry));
}

/** Applies the pending migrations one at a time up to and including `last` (a restore replays an archive's level). */
export async function applyMigrationsThrough(db: Knex, last: string): Promise<void> {
  const { applied, pending } = await migrationStatus(db);
  if (applied.includes(last)) return;
  if (!pending.includes(last)) throw new Error(`Unknown migration: ${last}`);
  for (const name of pending) {
    await db.migrate.up({ migrationSource });
    if (name === last) return;
  }
}
