import type { Knex } from 'knex';

/**
 * The dashboard reads payments by invoice status (awaiting payment, oldest first, with their total) and by payment
 * date (advertising spend per month). The amount (and owner type) ride along in the indexes, so the totals are
 * summed from index ranges without reading the payment rows.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.index(['invoiceStatus', 'paymentDate', 'amount']);
    t.index(['paymentDate', 'entityType', 'amount']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payments', (t) => {
    t.dropIndex(['invoiceStatus', 'paymentDate', 'amount']);
    t.dropIndex(['paymentDate', 'entityType', 'amount']);
  });
}
