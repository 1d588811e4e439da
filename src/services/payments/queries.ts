import type { Knex } from 'knex';
import { decodeRow, encodeRow, sumMoney } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import type { Payment } from '@shared/schemas/attachments.js';
import type { RecordType } from '@shared/record-types.js';
import { adjustPaymentTotals } from './totals.js';

type Db = Knex | Knex.Transaction;
const decode = (row: Record<string, unknown>) => decodeRow<Payment>(columnKinds.payments, row);

export interface PaymentFilter {
  entityType?: RecordType;
  entityId?: number;
}

function filtered(db: Db, filter: PaymentFilter) {
  const query = db('payments');
  if (filter.entityType) query.where({ entityType: filter.entityType });
  if (filter.entityId !== undefined) query.where({ entityId: filter.entityId });
  return query;
}

export async function findPayment(db: Db, id: number): Promise<Payment | undefined> {
  const row = (await db('payments').where({ id }).first()) as Record<string, unknown> | undefined;
  return row ? decode(row) : undefined;
}

/** Newest payment first (undated ones last), then newest entry. */
export async function listPaymentRows(db: Db, filter: PaymentFilter, page: { limit: number; offset: number }): Promise<Payment[]> {
  const rows = (await filtered(db, filter)
    .orderByRaw('CASE WHEN ?? IS NULL THEN 1 ELSE 0 END', ['paymentDate'])
    .orderBy([
      { column: 'paymentDate', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(page.limit)
    .offset(page.offset)) as Array<Record<string, unknown>>;
  return rows.map(decode);
}

export async function countPayments(db: Db, filter: PaymentFilter): Promise<number> {
  const row = (await filtered(db, filter).count({ n: '*' }).first()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}

/**
 * The exact sum of the matching amounts. Summed in integer cents here rather than with SQL SUM(), because SQLite
 * stores DECIMAL as a float and would answer 0.30000000000000004 for 0.10 + 0.20.
 */
export async function sumPayments(db: Db, filter: PaymentFilter): Promise<string> {
  const rows = (await filtered(db, filter).select('amount')) as Array<{ amount: unknown }>;
  return sumMoney(rows.map((row) => (typeof row.amount === 'number' ? row.amount.toFixed(2) : String(row.amount))));
}

/** The three writes of one payment row; each keeps the dashboard's payment totals in step in the same transaction. */
export async function insertPayment(trx: Knex.Transaction, values: Record<string, unknown>): Promise<number> {
  const [inserted] = (await trx('payments').insert(encodeRow(columnKinds.payments, values))) as number[];
  await adjustPaymentTotals(trx, [], [values]);
  return Number(inserted);
}

export async function updatePaymentRow(trx: Knex.Transaction, id: number, values: Record<string, unknown>): Promise<void> {
  const before = (await trx('payments').where({ id }).first()) as Record<string, unknown> | undefined;
  await trx('payments').where({ id }).update(encodeRow(columnKinds.payments, values));
  if (before) await adjustPaymentTotals(trx, [before], [{ ...before, ...values }]);
}

export async function deletePaymentRow(trx: Knex.Transaction, id: number): Promise<number> {
  const before = (await trx('payments').where({ id }).first()) as Record<string, unknown> | undefined;
  const deleted = await trx('payments').where({ id }).delete();
  if (before && deleted) await adjustPaymentTotals(trx, [before], []);
  return deleted;
}

/** The stored total each record type keeps of its payments (media and influencers keep none). */
export const OWNER_TOTAL_COLUMN: Partial<Record<RecordType, string>> = {
  event: 'totalAdvertisingSpend',
  brand: 'totalAdvertisingSpend',
  professional: 'totalPayments',
  runclub: 'totalPayments',
};
