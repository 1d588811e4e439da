import type { Knex } from 'knex';

/**
 * The one module migrations share, frozen like a migration: once a landed migration uses a helper, its output
 * never changes (add a helper under a new name instead). Migrations import nothing else of ours, so a change to
 * live code can never change what an old migration does (docs/decisions/0007-frozen-migrations-versioned-derived-data.md).
 */

export const isMysql = (knex: Knex) => knex.client.config.client === 'mysql2';

/** utf8mb4 and InnoDB for a new MySQL/MariaDB table; nothing on SQLite. */
export function mysqlTableOptions(knex: Knex, table: Knex.CreateTableBuilder): void {
  if (!isMysql(knex)) return;
  table.charset('utf8mb4');
  table.collate('utf8mb4_unicode_ci');
  table.engine('InnoDB');
}
