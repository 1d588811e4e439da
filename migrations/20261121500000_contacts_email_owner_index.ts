import type { Knex } from 'knex';

/**
 * A CSV import checks every address of a batch for an existing contact of the same owner type. With the email
 * index alone MariaDB reads each found contact's row for its owner; an index on (email, entityType, entityId)
 * answers the lookup by itself, which cut that lookup by half in `npm run bench:import`. It also serves every
 * lookup by address that the plain email index served. SQLite looks addresses up through its lower(email) index
 * (migration 20261121300000), so nothing changes there.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'mysql2') return;
  await knex.raw(
    'ALTER TABLE contacts ADD INDEX contacts_email_owner_index (email, entityType, entityId), DROP INDEX contacts_email_index',
  );
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'mysql2') return;
  await knex.raw('ALTER TABLE contacts ADD INDEX contacts_email_index (email), DROP INDEX contacts_email_owner_index');
}
