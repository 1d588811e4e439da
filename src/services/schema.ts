import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { applyMigrations, migrationStatus } from '@db/migrate.js';
import { refreshDerivedData } from './records/derived.js';
import { refreshDuplicateData } from './duplicates/derived.js';

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
  await refreshDuplicateData(db, options);
  return { applied, derivedDataRebuilt };
}

/**
 * Null when every migration is applied; else a line saying how many are pending and what to do, for a process that
 * does not migrate by itself (a web server with MIGRATE_ON_START=false, a worker) and must not run on an old schema.
 */
export async function pendingMigrationsProblem(db: Knex): Promise<string | null> {
  const { pending } = await migrationStatus(db);
  if (pending.length === 0) return null;
  return (
    `The database schema is not up to date: ${pending.length} migration${pending.length === 1 ? '' : 's'} pending ` +
    `(${pending.slice(0, 3).join(', ')}${pending.length > 3 ? ', …' : ''}). Run \`pacer db migrate\` (the release step), ` +
    'or start the web server with MIGRATE_ON_START=true.'
  );
}
