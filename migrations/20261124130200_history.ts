import type { Knex } from 'knex';
import { isMysql, mysqlTableOptions } from './helpers.js';

/**
 * The history of every change (issue 13): one row per create, update or delete of a record, contact, payment, file
 * or user, written in the same transaction as the change. `changes` is JSON: the changed fields with old and new
 * values for an update, the values for a create, and a full snapshot (with what the record owned) for a delete.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('history', (t) => {
    mysqlTableOptions(knex, t);
    t.bigIncrements('id');
    t.string('entityType', 20).notNullable();
    t.integer('entityId').unsigned().notNullable();
    t.string('action', 10).notNullable();
    t.specificType('at', isMysql(knex) ? 'DATETIME(3)' : 'TEXT').notNullable();
    t.integer('actorId').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    // user, cli, import or sync; the label is the name (or OS user) at the time, so it reads the same later.
    t.string('actorKind', 10).notNullable();
    t.string('actorLabel', 200).notNullable();
    t.string('runId', 64).nullable();
    if (isMysql(knex)) t.specificType('changes', 'LONGTEXT').notNullable();
    else t.text('changes').notNullable();
    t.index(['entityType', 'entityId', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('history');
}
