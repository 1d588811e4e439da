import type { Knex } from 'knex';
import { isMysql, mysqlTableOptions } from './helpers.js';

/**
 * Recently deleted (issue 13): a deleted record with everything it owned, as stored, restorable for 30 days (its
 * files' bytes stay on disk until the entry is purged).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('deleted_items', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.string('entityType', 20).notNullable();
    t.integer('entityId').unsigned().notNullable();
    t.string('name', 500).notNullable();
    // What it held: {"contacts": n, "payments": n, "files": n}.
    t.string('holds', 200).notNullable();
    if (isMysql(knex)) t.specificType('snapshot', 'LONGTEXT').notNullable();
    else t.text('snapshot').notNullable();
    t.integer('deletedBy').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    t.string('deletedByLabel', 200).notNullable();
    t.specificType('deletedAt', isMysql(knex) ? 'DATETIME(3)' : 'TEXT').notNullable();
    t.index(['deletedAt']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('deleted_items');
}
