import type { Knex } from 'knex';

/**
 * Issue 14: a sync stopped by cancelling its job is recorded as cancelled, not failed. The pages it wrote before it
 * stopped stay, so the run keeps its counts; `success` stays false, so the next run does not start from this one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sync_runs', (t) => {
    t.boolean('cancelled').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sync_runs', (t) => {
    t.dropColumn('cancelled');
  });
}
