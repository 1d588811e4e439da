import type { Knex } from 'knex';

/**
 * One row per import kind, locked (INSERT … ON DUPLICATE KEY UPDATE) by each import batch's transaction on MySQL,
 * so two imports of the same kind take turns batch by batch and each sees the other's committed contacts and
 * brands before it decides what is new (docs/decisions/0030-csv-import-engine.md). Rows appear on first use.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('import_locks', (t) => {
    if (knex.client.config.client === 'mysql2') {
      t.charset('utf8mb4');
      t.collate('utf8mb4_unicode_ci');
      t.engine('InnoDB');
    }
    t.string('name', 30).primary();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('import_locks');
}
