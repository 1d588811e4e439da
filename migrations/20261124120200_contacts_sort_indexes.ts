import type { Knex } from 'knex';

/** The contacts directory's sorts, each on one (columns…, id) index like the record lists'. */
const indexes: string[][] = [
  ['lastName', 'firstName', 'id'],
  ['jobTitle', 'id'],
  ['updatedAt', 'id'],
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('contacts', (t) => {
    for (const columns of indexes) t.index(columns);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('contacts', (t) => {
    for (const columns of indexes) t.dropIndex(columns);
  });
}
