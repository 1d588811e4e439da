import type { Knex } from 'knex';
import { isMysql, mysqlTableOptions } from './helpers.js';

function datetime(knex: Knex, table: Knex.CreateTableBuilder, name: string) {
  return table.specificType(name, isMysql(knex) ? 'DATETIME(3)' : 'TEXT');
}

/**
 * Two-factor sign-in, sign-in history and the site's security settings (issue 35, docs/decisions/0102, 0103).
 * - user_second_factors: a user's second factors, one row each, by kind ('totp' now; a passkey later adds its own
 *   columns and rows). A TOTP row is pending until its first code is confirmed (confirmedAt NULL); lastUsedStep
 *   is the last 30-second step accepted, so a code is never accepted twice.
 * - user_recovery_codes: the SHA-256 of each one-time recovery code; usedAt set when it is spent.
 * - sign_in_events: who signed in or failed to, used a second factor, changed or reset a password, from which
 *   address and browser. userId is the account concerned (NULL for an unknown email), actorId who did it when
 *   that is someone else (an admin's reset), so a later activity log can read it as it is.
 * - app_settings: site-wide settings an admin changes at run time (name, JSON value).
 * - sessions.secondFactorSetupRequired: the session may only set up a second factor (the admin requires one).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_second_factors', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.integer('userId').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('kind', 16).notNullable();
    t.string('name', 100).nullable();
    t.string('secret', 128).nullable();
    t.bigInteger('lastUsedStep').nullable();
    datetime(knex, t, 'createdAt').notNullable();
    datetime(knex, t, 'confirmedAt').nullable();
    datetime(knex, t, 'lastUsedAt').nullable();
    t.index(['userId', 'kind']);
  });

  await knex.schema.createTable('user_recovery_codes', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    t.integer('userId').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('codeHash', 64).notNullable();
    datetime(knex, t, 'usedAt').nullable();
    t.unique(['userId', 'codeHash']);
  });

  await knex.schema.createTable('sign_in_events', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    datetime(knex, t, 'occurredAt').notNullable();
    t.integer('userId').unsigned().nullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('actorId').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    t.string('email', 255).notNullable().defaultTo('');
    t.string('kind', 40).notNullable();
    t.boolean('succeeded').notNullable();
    t.string('detail', 100).nullable();
    t.string('ip', 64).notNullable().defaultTo('');
    t.string('userAgent', 500).notNullable().defaultTo('');
    // SHA-256 of the browser's name and system: a sign-in from a browser never seen before is told to the user.
    t.string('browserKey', 64).nullable();
    t.index(['userId', 'occurredAt']);
    t.index(['occurredAt']);
  });

  await knex.schema.createTable('app_settings', (t) => {
    mysqlTableOptions(knex, t);
    t.string('name', 100).primary();
    t.text('value').notNullable();
    datetime(knex, t, 'updatedAt').notNullable();
    t.integer('updatedBy').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
  });

  await knex.schema.alterTable('sessions', (t) => {
    t.boolean('secondFactorSetupRequired').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.dropColumn('secondFactorSetupRequired');
  });
  await knex.schema.dropTableIfExists('app_settings');
  await knex.schema.dropTableIfExists('sign_in_events');
  await knex.schema.dropTableIfExists('user_recovery_codes');
  await knex.schema.dropTableIfExists('user_second_factors');
}
