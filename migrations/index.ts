import type { Knex } from 'knex';
import { foundMigrations } from './found.js';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/**
 * The migrations, found by their file names and ordered by them (./found.ts): adding a migration is adding its file.
 * Never edit one that has landed (test/unit/migration-checksums.test.ts). A migration imports only `knex` and
 * `./helpers.js`, never live code, and never fills derived data (src/db/migrate.ts does that).
 */
export const migrationSource: Knex.MigrationSource<[string, Migration]> = {
  getMigrations: async () => (await foundMigrations()) as Array<[string, Migration]>,
  getMigrationName: ([name]) => name,
  getMigration: async ([, migration]) => migration,
};
