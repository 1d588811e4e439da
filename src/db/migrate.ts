import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { migrationSource } from '@migrations/index.js';
import { refreshDerivedData } from '@services/records/derived.js';

export interface MigrateResult {
  applied: string[];
  /** Whether the derived data (search index, record counts) was rebuilt because its definition changed. */
  derivedDataRebuilt: boolean;
}

/**
 * Applies pending migrations, then brings the derived data in line with the code's definition of it (at most one
 * rebuild per definition change). That step runs here, after the last migration, because migrations are frozen in
 * time and the derived data is not (docs/decisions/0007-frozen-migrations-versioned-derived-data.md).
 */
export async function migrateToLatest(db: Knex, options: { log?: Logger } = {}): Promise<MigrateResult> {
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  const derivedDataRebuilt = await refreshDerivedData(db, options);
  return { applied, derivedDataRebuilt };
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
