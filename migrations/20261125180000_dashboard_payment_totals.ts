import type { Knex } from 'knex';
import { mysqlTableOptions } from './helpers.js';

/**
 * Issue 15: the dashboard's payment figures kept as totals, so its page costs the same however many payments there
 * are. One row per bucket ('awaiting', 'spend:YYYY-MM'): the number of payments and their sum in whole cents. The
 * payments service keeps them in step in the transaction of every payment write; they are derived data, filled by
 * the derived-data rebuild after the last migration, never here.
 *
 * The oldest awaiting payments are read per status in (paymentDate, id) order, undated ones by id: an index with
 * the id right after the date gives that order without sorting every awaiting payment.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payment_totals', (t) => {
    mysqlTableOptions(knex, t);
    t.string('bucket', 20).notNullable().primary();
    t.integer('payments').notNullable().defaultTo(0);
    t.bigInteger('cents').notNullable().defaultTo(0);
  });
  await knex.schema.alterTable('payments', (t) => {
    t.index(['invoiceStatus', 'paymentDate', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.dropIndex(['invoiceStatus', 'paymentDate', 'id']);
  });
  await knex.schema.dropTableIfExists('payment_totals');
}
