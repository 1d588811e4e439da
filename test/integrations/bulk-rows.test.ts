import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_ROWS, insertRowsInBulk, withBulkCheckpoints, type BulkRow } from '@db/bulk-rows.js';
import { withTransaction } from '@db/transaction.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

/**
 * src/db/bulk-rows.ts on the database the tests run on (SQLite, or MariaDB with TEST_DATABASE_URL, where enough rows
 * go through LOAD DATA LOCAL): every row is stored exactly as given, or the insert fails and the transaction keeps
 * nothing. LOAD DATA LOCAL on its own would skip a duplicate key and cut an overlong value with only a warning.
 */
describe('rows written in bulk', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
    await database.db.schema.createTable('bulk_probe', (table) => {
      table.integer('id').primary();
      table.string('name', 20).notNullable();
      table.text('note').nullable();
      table.binary('bytes').nullable();
    });
  });
  afterAll(async () => database.destroy());

  const stored = async () =>
    ((await database.db('bulk_probe').orderBy('id').select('id', 'name', 'note', 'bytes')) as Array<Record<string, unknown>>).map((row) => [
      Number(row.id),
      row.name,
      row.note,
      row.bytes === null ? null : Buffer.from(row.bytes as Uint8Array),
    ]);
  const many = (from: number, count: number): BulkRow[] =>
    Array.from({ length: count }, (_, i) => {
      const id = from + i;
      // Text the stream format escapes (tab, newline, carriage return, backslash, NUL), non-ASCII, nulls and bytes.
      // Now and then a value longer than a whole chunk of the LOAD DATA stream (32 KB).
      const note =
        id % 997 === 0 && id < 10_000
          ? `ü\t${id}`.repeat(8000)
          : id % 7 === 0
            ? null
            : id % 5 === 0
              ? `tab\there\nnew\rline \\ back\0slash ${id}`
              : `Zoë ${id} 🏃`;
      const bytes = id % 3 === 0 ? null : Buffer.from([id & 255, 0, 9, 10, 92, 255]);
      return [id, `name ${id}`, note, bytes];
    });

  it('keeps every value of thousands of rows as given, nulls, escapes and bytes included', async () => {
    const rows = many(1, BULK_ROWS + 500);
    await withTransaction({ db: database.db }, (trx) => insertRowsInBulk(trx, 'bulk_probe', ['id', 'name', 'note', 'bytes'], rows));
    expect(await stored()).toEqual(rows);
    // A few rows, as an ordinary edit writes them, take the other path and keep the same values.
    const few = many(BULK_ROWS + 501, 3);
    await withTransaction({ db: database.db }, (trx) =>
      insertRowsInBulk(trx, 'bulk_probe', ['id', 'name', 'note', 'bytes'], few, { count: few.length }),
    );
    expect(await stored()).toEqual([...rows, ...few]);
  });

  it('keeps numbers that are not integers (a decimal restored from SQLite), in bulk and as a few rows', async () => {
    await database.db.schema.createTable('bulk_numbers', (table) => {
      table.integer('id').primary();
      table.decimal('amount', 10, 2).notNullable();
    });
    const rows = (from: number, count: number): BulkRow[] => Array.from({ length: count }, (_, i) => [from + i, (from + i) / 4]);
    const bulk = rows(1, BULK_ROWS + 5);
    const few = rows(BULK_ROWS + 6, 3);
    await withTransaction({ db: database.db }, async (trx) => {
      await insertRowsInBulk(trx, 'bulk_numbers', ['id', 'amount'], bulk);
      await insertRowsInBulk(trx, 'bulk_numbers', ['id', 'amount'], few, { count: few.length });
    });
    const back = (await database.db('bulk_numbers').orderBy('id').select('id', 'amount')) as Array<Record<string, unknown>>;
    // MariaDB hands decimals back as text; the amounts are quarters, which two decimals hold exactly.
    expect(back.map((row) => [Number(row.id), Number(row.amount)])).toEqual([...bulk, ...few]);
  });

  it('fails on a duplicate key and leaves nothing of the transaction behind', async () => {
    const before = await stored();
    const rows = many(10_001, BULK_ROWS + 10);
    rows.push([10_005, 'again', null, null]);
    const failed = withTransaction({ db: database.db }, (trx) =>
      insertRowsInBulk(trx, 'bulk_probe', ['id', 'name', 'note', 'bytes'], rows),
    );
    await expect(failed).rejects.toThrow();
    expect(await stored()).toEqual(before);
  });

  it('stores a value the column cannot hold whole either whole or not at all, never cut short', async () => {
    const before = await stored();
    const rows = many(20_001, BULK_ROWS + 10);
    rows[100] = [20_101, 'a name far longer than twenty characters', null, null];
    const attempt = withTransaction({ db: database.db }, (trx) =>
      insertRowsInBulk(trx, 'bulk_probe', ['id', 'name', 'note', 'bytes'], rows),
    ).then(
      () => 'kept' as const,
      () => 'refused' as const,
    );
    // SQLite keeps text of any length in a string column; MariaDB's strict mode (or our check of LOAD DATA's
    // warnings) refuses it.
    if ((await attempt) === 'kept') {
      expect(database.dialect).toBe('sqlite');
      expect(await stored()).toEqual([...before, ...rows]);
    } else {
      expect(database.dialect).toBe('mysql');
      expect(await stored()).toEqual(before);
    }
  });

  it('gives rows ids in the order given, the rows after the last full statement included', async () => {
    await database.db.schema.createTable('bulk_order', (table) => {
      table.increments('id').primary();
      table.string('name', 20).notNullable();
    });
    // 2,000 rows fill SQLite's statement of one column; 1,234 more go in statements of 1,024, 128, 64, 16 and 2.
    const names = Array.from({ length: 3234 }, (_, i) => `row ${i}`);
    await withTransaction({ db: database.db }, (trx) =>
      insertRowsInBulk(
        trx,
        'bulk_order',
        ['name'],
        names.map((name) => [name]),
      ),
    );
    expect(await database.db('bulk_order').orderBy('id').pluck('name')).toEqual(names);
  });

  it('checkpoints SQLite less often only while a bulk write runs, and puts the setting back even when it fails', async () => {
    const setting = async () =>
      database.dialect === 'sqlite'
        ? Number(((await database.db.raw('PRAGMA wal_autocheckpoint')) as Array<{ wal_autocheckpoint: number }>)[0]!.wal_autocheckpoint)
        : null;
    const before = await setting();
    const during = await withBulkCheckpoints(database.db, setting);
    await expect(
      withBulkCheckpoints(database.db, async () => {
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    expect(await setting()).toBe(before);
    if (database.dialect === 'sqlite') expect(during).toBeGreaterThan(before!);
    else expect(during).toBeNull();
  });
});
