import type { Knex } from 'knex';
import { migrationSource } from '@migrations/index.js';

/** Applies the pending migrations (schema only: see migrateToLatest in src/services/schema.ts for the whole step). */
export async function applyMigrations(db: Knex): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}

export async function rollbackLast(db: Knex): Promise<string[]> {
  const [, reverted] = (await db.migrate.rollback({ migrationSource })) as [number, string[]];
  return reverted;
}

export async function migrationStatus(db: Knex): Promise<{ applied: string[]; pending: string[] }> {
  const [applied, pending] = (await db.migrate.list({ migrationSource })) as [Array<{ name: string } | string>, Array<[string, unknown]>];
  return {
    applied: applied.map((entry) => (typeof entry === 'string' ? entry : entry.name)),
    pending: pending.map(([name]) => name),
  };
}
