import type { Knex } from 'knex';
import { isMysql, mysqlTableOptions } from './helpers.js';

/**
 * Trigram postings packed per block of 256 record ids (docs/decisions/0085-packed-postings.md): one row per (kind,
 * gram, block) whose `ids` bytes list the block's ids that hold the gram, instead of one row per (kind, gram,
 * recordId). The table is derived data, so it is dropped and made again empty; the derived-data step that runs after
 * the last migration sees the new definition version and fills it (src/db/migrate.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await recreatePostings(knex, true);
}

/** Back to one row per posting, empty: the derived-data step of the code that migrates down fills it again. */
export async function down(knex: Knex): Promise<void> {
  await recreatePostings(knex, false);
  await knex('derived_data_versions').where({ name: 'records' }).delete();
}

/** record_search_grams, empty: packed (kind, gram, block, ids) or one posting a row (kind, gram, recordId). */
async function recreatePostings(knex: Knex, packed: boolean): Promise<void> {
  await knex.schema.dropTableIfExists('record_search_grams');
  const key = packed ? ['kind', 'gram', 'block'] : ['kind', 'gram', 'recordId'];
  if (isMysql(knex)) {
    await knex.schema.createTable('record_search_grams', (t) => {
      mysqlTableOptions(knex, t);
      t.tinyint('kind').unsigned().notNullable();
      t.integer('gram').unsigned().notNullable();
      t.integer(key[2]!).unsigned().notNullable();
      if (packed) t.specificType('ids', 'VARBINARY(32)').notNullable();
      // InnoDB clusters rows on the primary key, so one gram's rows are one contiguous range.
      t.primary(key);
    });
    return;
  }
  // WITHOUT ROWID clusters the rows on the key, as InnoDB does.
  await knex.raw(
    `CREATE TABLE record_search_grams (kind INTEGER NOT NULL, gram INTEGER NOT NULL, ${key[2]} INTEGER NOT NULL, ` +
      `${packed ? 'ids BLOB NOT NULL, ' : ''}PRIMARY KEY (${key.join(', ')})) WITHOUT ROWID`,
  );
}
