import type { Knex } from 'knex';

/**
 * CSV imports look contacts up by address without case (docs/decisions/0030-csv-import-engine.md). MySQL's
 * case-insensitive collation lets the existing email index serve that; SQLite compares case-sensitively, so it
 * gets an index on lower(email) for the same lookup. Nothing changes on MySQL.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'mysql2') return;
  await knex.raw('CREATE INDEX IF NOT EXISTS contacts_entitytype_lower_email ON contacts (entityType, lower(email))');
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'mysql2') return;
  await knex.raw('DROP INDEX IF EXISTS contacts_entitytype_lower_email');
}
