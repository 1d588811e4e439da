import type { Knex } from 'knex';
import { isMysql, mysqlTableOptions } from './helpers.js';

/**
 * One-time set-password links (issue 13): an admin adds a user or resets a password and gets a link. Only the
 * token's SHA-256 is stored; a user has at most one link (a newer one replaces it) and using it deletes it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('set_password_links', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.integer('userId').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('tokenHash', 64).notNullable().unique();
    t.integer('createdBy').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    t.specificType('createdAt', isMysql(knex) ? 'DATETIME(3)' : 'TEXT').notNullable();
    t.specificType('expiresAt', isMysql(knex) ? 'DATETIME(3)' : 'TEXT').notNullable();
    t.index(['userId']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('set_password_links');
}
