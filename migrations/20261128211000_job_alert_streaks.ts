import type { Knex } from 'knex';
import { isMysql, mysqlTableOptions } from './helpers.js';

function datetime(knex: Knex, table: Knex.CreateTableBuilder, name: string) {
  return table.specificType(name, isMysql(knex) ? 'DATETIME(3)' : 'TEXT');
}

/**
 * Failure alerts (issue 35 point 5, docs/decisions/0105): one row per thing that can fail on its own (a job type,
 * a scheduled sync), keyed by name. A row with failingSince set is a failure streak: the admins were told once when
 * it began (alertedAt); the next success clears it and tells them it recovered.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('alert_streaks', (t) => {
    mysqlTableOptions(knex, t);
    t.string('alertKey', 150).primary();
    t.string('label', 255).notNullable();
    datetime(knex, t, 'failingSince').nullable();
    t.integer('failures').notNullable().defaultTo(0);
    t.string('lastError', 1000).nullable();
    datetime(knex, t, 'alertedAt').nullable();
    datetime(knex, t, 'updatedAt').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('alert_streaks');
}
