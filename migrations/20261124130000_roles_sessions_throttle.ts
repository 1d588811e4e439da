import type { Knex } from 'knex';
import { isMysql, mysqlTableOptions } from './helpers.js';

function datetime(knex: Knex, table: Knex.CreateTableBuilder, name: string) {
  return table.specificType(name, isMysql(knex) ? 'DATETIME(3)' : 'TEXT');
}

/**
 * Roles, a sessions table and sign-in throttling counters in the database (issue 13).
 * - users.role: every user that exists when this runs ran the whole system before roles existed, so they become
 *   admins; a user created later gets the role it is given (the column's default is the least surprising, staff).
 * - sessions: one row per sign-in; the cookie carries a random token and the row's id is its SHA-256, so a copy of
 *   the table signs nobody in. users.sessionVersion is no longer read (left in place: dropping a column on SQLite
 *   rebuilds a table every other table refers to).
 * - sign_in_throttle: failure counters per key (account+IP, IP) in fixed windows, shared by every server process.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.string('role', 16).notNullable().defaultTo('staff');
  });
  await knex('users').update({ role: 'admin' });

  await knex.schema.createTable('sessions', (t) => {
    mysqlTableOptions(knex, t);
    t.string('id', 64).primary();
    t.integer('userId').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    datetime(knex, t, 'createdAt').notNullable();
    datetime(knex, t, 'lastSeenAt').notNullable();
    t.string('userAgent', 500).notNullable().defaultTo('');
    t.string('ip', 64).notNullable().defaultTo('');
    t.index(['userId']);
  });

  await knex.schema.createTable('sign_in_throttle', (t) => {
    mysqlTableOptions(knex, t);
    // The SHA-256 of the key (account+IP or IP), so an email of any length fits and no address is stored.
    t.string('throttleKey', 64).primary();
    t.integer('failures').unsigned().notNullable();
    // Epoch milliseconds: compared with the clock in one statement on both dialects.
    t.bigInteger('resetAt').notNullable();
    t.index(['resetAt']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('sign_in_throttle');
  await knex.schema.dropTableIfExists('sessions');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('role');
  });
}
