import type { Knex } from 'knex';
import { isMysql, mysqlTableOptions } from './helpers.js';

/**
 * Saved mappings of the general import (issue 34 point 1; docs/decisions/0107-general-import.md): the mapping last
 * used for a file of a type, found again by a hash of the file's header (each header trimmed and lower-cased), so the
 * mapping screen offers it the next time the same headers come. One row per type and header; a later import with the
 * same headers replaces it.
 */
export async function up(knex: Knex): Promise<void> {
  const mysql = isMysql(knex);
  await knex.schema.createTable('import_mappings', (t) => {
    mysqlTableOptions(knex, t);
    t.increments('id');
    // A record type or 'contact'.
    t.string('type', 20).notNullable();
    // SHA-256 (hex) of the normalised header list.
    t.string('headerHash', 64).notNullable();
    // The mapping as JSON: {"file header": "field name" | null}.
    t.text('mapping').notNullable();
    t.integer('savedBy').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    t.specificType('savedAt', mysql ? 'DATETIME(3)' : 'TEXT').notNullable();
    t.unique(['type', 'headerHash'], { indexName: 'import_mappings_type_header' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('import_mappings');
}
