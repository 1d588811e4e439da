import type { Knex } from 'knex';

/**
 * Derived data that keeps record lists and search fast (docs/decisions/0011-record-search-and-counts.md), and the
 * indexes the list sort orders need. It only creates the tables: filling them is the job of the derived-data step
 * that runs after the last migration (src/db/migrate.ts), because what goes in them is defined by the code of the
 * day, not of this migration (docs/decisions/0007-frozen-migrations-versioned-derived-data.md).
 */

const isMysql = (knex: Knex) => knex.client.config.client === 'mysql2';

function mysqlTableOptions(knex: Knex, table: Knex.CreateTableBuilder) {
  if (isMysql(knex)) {
    table.charset('utf8mb4');
    table.collate('utf8mb4_unicode_ci');
    table.engine('InnoDB');
  }
}

const sortIndexes: Array<[table: string, columns: string[]]> = [
  ['events', ['eventName']],
  ['events', ['updatedAt']],
  ['events', ['featuredRace']],
  ['professionals', ['businessName']],
  ['professionals', ['updatedAt']],
  ['run_clubs', ['clubName']],
  ['run_clubs', ['updatedAt']],
  ['brands', ['brandName']],
  ['brands', ['updatedAt']],
  ['media', ['mediaName']],
  ['media', ['updatedAt']],
  ['influencers', ['lastName', 'firstName']],
  ['influencers', ['updatedAt']],
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('record_search_docs', (t) => {
    mysqlTableOptions(knex, t);
    t.tinyint('kind').unsigned().notNullable();
    t.integer('recordId').unsigned().notNullable();
    // Already lowercased by the app; a binary collation compares it byte for byte, as SQLite does.
    if (isMysql(knex)) t.text('text').collate('utf8mb4_bin').notNullable();
    else t.text('text').notNullable();
    t.string('buckets', 255).notNullable().defaultTo('');
    t.primary(['kind', 'recordId']);
  });

  if (isMysql(knex)) {
    await knex.schema.createTable('record_search_grams', (t) => {
      mysqlTableOptions(knex, t);
      t.tinyint('kind').unsigned().notNullable();
      t.integer('gram').unsigned().notNullable();
      t.integer('recordId').unsigned().notNullable();
      // InnoDB clusters rows on the primary key, so one gram's postings are one contiguous range.
      t.primary(['kind', 'gram', 'recordId']);
    });
  } else {
    // WITHOUT ROWID clusters the postings on the key, as InnoDB does.
    await knex.raw(
      'CREATE TABLE record_search_grams (kind INTEGER NOT NULL, gram INTEGER NOT NULL, recordId INTEGER NOT NULL, PRIMARY KEY (kind, gram, recordId)) WITHOUT ROWID',
    );
  }

  await knex.schema.createTable('record_counts', (t) => {
    mysqlTableOptions(knex, t);
    t.tinyint('kind').unsigned().notNullable();
    t.string('bucket', 40).notNullable();
    t.integer('total').notNullable().defaultTo(0);
    t.primary(['kind', 'bucket']);
  });

  for (const [table, columns] of sortIndexes) {
    await knex.schema.alterTable(table, (t) => {
      t.index(columns);
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, columns] of sortIndexes) {
    await knex.schema.alterTable(table, (t) => {
      t.dropIndex(columns);
    });
  }
  await knex.schema.dropTableIfExists('record_counts');
  await knex.schema.dropTableIfExists('record_search_grams');
  await knex.schema.dropTableIfExists('record_search_docs');
}
