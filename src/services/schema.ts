import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { applyMigrations } from '@db/migrate.js';
import { refreshDerivedData } from './records/derived.js';

export interface MigrateResult {
  applied: string[];
  /** Whether the derived data (search index, record counts) was rebuilt because its definition changed. */
  derivedDataRebuilt: boolean;
}

/**
 * Applies pending migrations, then brings the derived data in line with the code's definition of it (at most one
 * rebuild per definition change). That step runs after the last migration because migrations are frozen in time
 * and the derived data is not (docs/decisions/0007-frozen-migrations-versioned-derived-data.md); it lives here, not
 * in src/db, because the derived data is the records service's.
 */
export async function migrateToLatest(db: Knex, options: { log?: Logger } = {}): Promise<MigrateResult> {
  const applied = await applyMigrations(db);
  const derivedDataRebuilt = await refreshDerivedData(db, options);
  return { applied, derivedDataRebuilt };
}
