import type { Knex } from 'knex';
import { afterAll, describe, expect, it } from 'vitest';
import { dialectOfDb } from '@db/knex.js';
import { migrateToLatest } from '@services/schema.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/db.js';

/** Every table's definition and rows (the migrations' own records without the time each ran), by table name. */
async function contentsOf(db: Knex): Promise<Record<string, { definition: string; rows: unknown[] }>> {
  const mysql = dialectOfDb(db) === 'mysql';
  const tables = mysql
    ? (
        (await db.raw(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE'",
        )) as unknown as [Array<{ name: string }>]
      )[0]
    : ((await db.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")) as Array<{ name: string }>);
  const contents: Record<string, { definition: string; rows: unknown[] }> = {};
  for (const { name } of tables) {
    const definition = mysql
      ? ((await db.raw('SHOW CREATE TABLE ??', [name])) as unknown as [[{ 'Create Table': string }]])[0][0]['Create Table']
      : (
          (await db.raw("SELECT group_concat(sql, ';') AS sql FROM sqlite_master WHERE tbl_name = ? ORDER BY name", [name])) as Array<{
            sql: string;
          }>
        )[0]!.sql;
    const rows = (await db(name).select('*').orderByRaw('1')).map((row: Record<string, unknown>) => ({
      ...row,
      migration_time: undefined,
    }));
    contents[name] = { definition, rows };
  }
  return contents;
}

describe(`test databases (${testDialect})`, () => {
  const made: TestDatabase[] = [];
  afterAll(async () => {
    for (const database of made) await database.destroy();
  });

  it('start with what migrating an empty database gives: every table, index, key and seeded row', async () => {
    const copied = await createTestDatabase();
    const migrated = await createTestDatabase({ migrate: false });
    made.push(copied, migrated);
    await migrateToLatest(migrated.db);
    const expected = await contentsOf(migrated.db);
    expect(Object.keys(expected).length).toBeGreaterThan(20);
    expect(await contentsOf(copied.db)).toEqual(expected);
  });

  it('are each their own: a row written to one is in no other, nor in one made after', async () => {
    const first = await createTestDatabase();
    const second = await createTestDatabase();
    made.push(first, second);
    await first.db('users').insert({ email: 'only-here@example.org', passwordHash: 'x', createdAt: '2026-11-26 00:00:00' });
    const later = await createTestDatabase();
    made.push(later);
    const usersIn = async (database: TestDatabase) =>
      (await database.db('users').select('email')).map((row: { email: string }) => row.email);
    expect(await usersIn(first)).toEqual(['only-here@example.org']);
    expect(await usersIn(second)).toEqual([]);
    expect(await usersIn(later)).toEqual([]);
  });
});
