import type { Knex } from 'knex';

/**
 * sync_locks: the SQLite stand-in for MySQL's GET_LOCK, one row per running sync (holder, heartbeat), so two
 * runs of the same sync never overlap (docs/decisions/0041-sync-lock.md). sync_runs.notices: what a run reports
 * that is not an error, such as posts that are no longer published.
 */
export async function up(knex: Knex): Promise<void> {
  const mysql = knex.client.config.client === 'mysql2';
  await knex.schema.createTable('sync_locks', (t) => {
    if (mysql) {
      t.charset('utf8mb4');
      t.collate('utf8mb4_unicode_ci');
      t.engine('InnoDB');
    }
    t.string('name', 100).primary();
    t.string('holder', 255).notNullable();
    t.specificType('acquiredAt', mysql ? 'DATETIME(3)' : 'TEXT').notNullable();
    t.specificType('heartbeatAt', mysql ? 'DATETIME(3)' : 'TEXT').notNullable();
  });
  await knex.schema.alterTable('sync_runs', (t) => {
    t.json('notices');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sync_runs', (t) => {
    t.dropColumn('notices');
  });
  await knex.schema.dropTableIfExists('sync_locks');
}
