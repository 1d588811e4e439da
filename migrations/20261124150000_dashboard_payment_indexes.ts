import type { Knex } from 'knex';

/**
 * The dashboard reads payments by invoice status (awaiting payment, oldest first) and by payment date (advertising
 * spend per month): both stay index range reads however many payments there are.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.index(['invoiceStatus', 'paymentDate']);
    t.index(['paymentDate']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.dropIndex(['invoiceStatus', 'paymentDate']);
    t.dropIndex(['paymentDate']);
  });
}
