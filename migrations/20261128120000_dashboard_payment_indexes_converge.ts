import type { Knex } from 'knex';
import { isMysql } from './helpers.js';

/**
 * Migration 20261124150000 was edited after it had landed (commit bd843ef): it first made
 * (invoiceStatus, paymentDate) and (paymentDate), then (invoiceStatus, paymentDate, amount) and
 * (paymentDate, entityType, amount), so a database migrated before the edit kept the first pair. This brings every
 * database to the second: the old indexes are dropped where present, the new ones made where missing.
 */
const OLD_INDEXES = ['payments_invoicestatus_paymentdate_index', 'payments_paymentdate_index'];
const NEW_INDEXES: Array<[name: string, columns: string[]]> = [
  ['payments_invoicestatus_paymentdate_amount_index', ['invoiceStatus', 'paymentDate', 'amount']],
  ['payments_paymentdate_entitytype_amount_index', ['paymentDate', 'entityType', 'amount']],
];

async function paymentIndexNames(knex: Knex): Promise<Set<string>> {
  if (isMysql(knex)) {
    const rows = (await knex('information_schema.statistics')
      .distinct('index_name as name')
      .whereRaw('table_schema = database()')
      .andWhere('table_name', 'payments')) as Array<{ name: string }>;
    return new Set(rows.map((row) => row.name));
  }
  const rows = (await knex('sqlite_master').select('name').where({ type: 'index', tbl_name: 'payments' })) as Array<{ name: string }>;
  return new Set(rows.map((row) => row.name));
}

export async function up(knex: Knex): Promise<void> {
  const existing = await paymentIndexNames(knex);
  const stale = OLD_INDEXES.filter((name) => existing.has(name));
  const missing = NEW_INDEXES.filter(([name]) => !existing.has(name));
  if (stale.length === 0 && missing.length === 0) return;
  await knex.schema.alterTable('payments', (t) => {
    for (const name of stale) t.dropIndex([], name);
    for (const [name, columns] of missing) t.index(columns, name);
  });
}

/** Nothing to undo: before it, a database had either pair, and 20261124150000's own rollback drops the new one. */
export async function down(): Promise<void> {}
