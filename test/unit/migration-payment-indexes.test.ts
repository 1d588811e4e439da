import type { Knex } from 'knex';
import { afterEach, describe, expect, it } from 'vitest';
import { applyMigrations } from '@db/migrate.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/db.js';

const CONVERGE = '20261128120000_dashboard_payment_indexes_converge';

/** The payments table's indexes as "name(col, col…)", sorted: what a query plan can use. */
async function paymentIndexes(db: Knex): Promise<string[]> {
  const columnsByIndex = new Map<string, string[]>();
  if (testDialect === 'mysql') {
    const rows = (await db('information_schema.statistics')
      .select('index_name as name', 'column_name as col')
      .whereRaw('table_schema = database()')
      .andWhere('table_name', 'payments')
      .orderBy(['index_name', 'seq_in_index'])) as Array<{ name: string; col: string }>;
    for (const { name, col } of rows) columnsByIndex.set(name, [...(columnsByIndex.get(name) ?? []), col]);
  } else {
    const indexes = (await db.raw('PRAGMA index_list(payments)')) as Array<{ name: string }>;
    for (const { name } of indexes) {
      const columns = (await db.raw('PRAGMA index_info(??)', [name])) as Array<{ seqno: number; name: string }>;
      columnsByIndex.set(
        name,
        columns.sort((a, b) => a.seqno - b.seqno).map((column) => column.name),
      );
    }
  }
  return [...columnsByIndex].map(([name, columns]) => `${name}(${columns.join(', ')})`).sort();
}

/** A database as 20261124150000 left it before commit bd843ef edited it, with the converging migration not yet run. */
async function asMigratedBeforeTheEdit(db: Knex, keepNewIndexes = false): Promise<void> {
  await db.schema.alterTable('payments', (t) => {
    if (!keepNewIndexes) {
      t.dropIndex([], 'payments_invoicestatus_paymentdate_amount_index');
      t.dropIndex([], 'payments_paymentdate_entitytype_amount_index');
    }
    t.index(['invoiceStatus', 'paymentDate']);
    t.index(['paymentDate']);
  });
  await db('knex_migrations').where({ name: CONVERGE }).delete();
}

describe(`the payment indexes of 20261124150000 on ${testDialect}`, () => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.destroy();
    t = undefined;
  });

  it('are the same on a database migrated before its edit as on a new one, once migrated', async () => {
    t = await createTestDatabase();
    const fresh = await paymentIndexes(t.db);
    expect(fresh).toContain('payments_invoicestatus_paymentdate_amount_index(invoiceStatus, paymentDate, amount)');
    expect(fresh).toContain('payments_paymentdate_entitytype_amount_index(paymentDate, entityType, amount)');

    await asMigratedBeforeTheEdit(t.db);
    expect(await paymentIndexes(t.db)).toContain('payments_paymentdate_index(paymentDate)');
    expect(await applyMigrations(t.db)).toEqual([CONVERGE]);
    expect(await paymentIndexes(t.db)).toEqual(fresh);
  });

  it('drop the old pair where a database has both pairs, and change nothing on one already right', async () => {
    t = await createTestDatabase();
    const fresh = await paymentIndexes(t.db);
    await asMigratedBeforeTheEdit(t.db, true);
    expect(await applyMigrations(t.db)).toEqual([CONVERGE]);
    expect(await paymentIndexes(t.db)).toEqual(fresh);

    await t.db('knex_migrations').where({ name: CONVERGE }).delete();
    expect(await applyMigrations(t.db)).toEqual([CONVERGE]);
    expect(await paymentIndexes(t.db)).toEqual(fresh);
  });
});
