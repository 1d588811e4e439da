import type { Knex } from 'knex';
import { mysqlTableOptions } from './helpers.js';

/**
 * Which definition of the derived data (record search and counts) the database holds. `pacer db migrate` and the
 * server's start compare it with the code's after the last migration and rebuild once when they differ
 * (docs/decisions/0007-frozen-migrations-versioned-derived-data.md). The row starts empty, which no definition
 * matches, so the first migrate fills the derived tables; on a database filled by the old back-fill inside
 * 20261121100000 that means one rebuild more, of the same data.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('derived_data_versions', (t) => {
    mysqlTableOptions(knex, t);
    t.string('name', 40).primary();
    t.string('version', 64).notNullable();
  });
  // The row exists from the start so that a rebuild can lock it (two processes starting at once rebuild once).
  await knex('derived_data_versions').insert({ name: 'records', version: '' });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('derived_data_versions');
}
