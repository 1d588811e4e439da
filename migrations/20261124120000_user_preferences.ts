import type { Knex } from 'knex';
import { mysqlTableOptions } from './helpers.js';

/**
 * Settings each user's screens remember (a list's view and columns, the theme): one row per user and setting name,
 * its value JSON text checked by the setting's schema (src/shared/schemas/preferences.ts) on the way in and out.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_preferences', (t) => {
    mysqlTableOptions(knex, t);
    t.integer('userId').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('name', 60).notNullable();
    t.text('value').notNullable();
    t.specificType('updatedAt', knex.client.config.client === 'mysql2' ? 'DATETIME(3)' : 'TEXT').notNullable();
    t.primary(['userId', 'name']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('user_preferences');
}
