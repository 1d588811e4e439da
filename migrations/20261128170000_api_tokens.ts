import type { Knex } from 'knex';
import { isMysql, mysqlTableOptions } from './helpers.js';

function datetime(knex: Knex, table: Knex.CreateTableBuilder, name: string) {
  return table.specificType(name, isMysql(knex) ? 'DATETIME(3)' : 'TEXT');
}

/**
 * API tokens (issue 32): a script or another system acts with a token's role through `Authorization: Bearer`. Only
 * the SHA-256 of a token is kept (tokenHash, unique): the token is 32 random bytes, so a hash of it cannot be
 * guessed back, and a copy of the table lets nobody in. A revoked token keeps its row, so the list and the history
 * still name it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('api_tokens', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.string('name', 100).notNullable();
    t.string('tokenHash', 64).notNullable().unique();
    t.string('role', 16).notNullable();
    datetime(knex, t, 'createdAt').notNullable();
    t.integer('createdBy').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    datetime(knex, t, 'expiresAt').nullable();
    datetime(knex, t, 'revokedAt').nullable();
    datetime(knex, t, 'lastUsedAt').nullable();
    t.string('lastUsedIp', 64).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('api_tokens');
}
