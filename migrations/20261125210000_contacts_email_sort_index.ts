import type { Knex } from 'knex';

/**
 * The directory's email sort reads (email, id) in order, and its cursor pages seek on it
 * (docs/decisions/0067-keyset-pagination.md). On MariaDB migration 20261121500000 replaced the plain email index,
 * through which InnoDB's extended keys served that order, by (email, entityType, entityId), so every email-sorted
 * page was a filesort of the matching contacts. One index on (email, id, entityType, entityId) serves both: the
 * sort and its seeks walk it in order, and a CSV import looking up an address for an owner type still reads nothing
 * but the index (a second index on email would also leave the planner choosing between the two for `email = ?`,
 * and it chose the one that sorts). SQLite keeps its email index, whose keys end on the rowid.
 */
export async function up(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'mysql2') return;
  await knex.raw(
    'ALTER TABLE contacts ADD INDEX contacts_email_id_owner_index (email, id, entityType, entityId), DROP INDEX contacts_email_owner_index',
  );
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client !== 'mysql2') return;
  await knex.raw(
    'ALTER TABLE contacts ADD INDEX contacts_email_owner_index (email, entityType, entityId), DROP INDEX contacts_email_id_owner_index',
  );
}
