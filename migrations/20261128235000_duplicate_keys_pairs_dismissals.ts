import type { Knex } from 'knex';
import { isMysql, mysqlTableOptions } from './helpers.js';

function datetime(knex: Knex, table: Knex.CreateTableBuilder, name: string) {
  return table.specificType(name, isMysql(knex) ? 'DATETIME(3)' : 'TEXT');
}

/**
 * Duplicate detection (docs/decisions/0108-duplicates-and-merge.md):
 * - duplicate_keys: the normalised keys of each record and contact (email, phone, name), kept in step by the writes;
 * - duplicate_pairs: the candidate pairs those keys and the name similarity give, one row per pair (lowId < highId);
 * - duplicate_dismissals: pairs a person marked "not a duplicate", which the list leaves out for good.
 * The first two are derived data: filled after the last migration by the duplicates service, never here.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('duplicate_keys', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id').primary();
    t.string('kind', 20).notNullable();
    t.integer('recordId').unsigned().notNullable();
    t.string('keyType', 10).notNullable();
    t.string('keyValue', 191).notNullable();
    t.index(['kind', 'keyType', 'keyValue', 'recordId'], 'duplicate_keys_value');
    t.index(['kind', 'recordId'], 'duplicate_keys_record');
  });
  await knex.schema.createTable('duplicate_pairs', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id').primary();
    t.string('kind', 20).notNullable();
    t.integer('lowId').unsigned().notNullable();
    t.integer('highId').unsigned().notNullable();
    t.float('score').notNullable();
    t.string('reasons', 500).notNullable();
    t.unique(['kind', 'lowId', 'highId'], { indexName: 'duplicate_pairs_pair' });
    t.index(['kind', 'highId'], 'duplicate_pairs_high');
  });
  await knex.schema.createTable('duplicate_dismissals', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id').primary();
    t.string('kind', 20).notNullable();
    t.integer('lowId').unsigned().notNullable();
    t.integer('highId').unsigned().notNullable();
    t.integer('dismissedBy').unsigned().nullable();
    datetime(knex, t, 'dismissedAt').notNullable();
    t.unique(['kind', 'lowId', 'highId'], { indexName: 'duplicate_dismissals_pair' });
  });
  await knex('derived_data_versions').insert({ name: 'duplicates', version: '' });
}

export async function down(knex: Knex): Promise<void> {
  await knex('derived_data_versions').where({ name: 'duplicates' }).delete();
  await knex.schema.dropTable('duplicate_dismissals');
  await knex.schema.dropTable('duplicate_pairs');
  await knex.schema.dropTable('duplicate_keys');
}
