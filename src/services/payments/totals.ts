import type { Knex } from 'knex';
import { RECORD_TYPES, type RecordType } from '@shared/record-types.js';
import { OWNER_TOTAL_COLUMN } from './queries.js';

type Db = Knex | Knex.Transaction;

/**
 * The dashboard's payment figures, kept as totals (ADR 0050): per bucket, the number of payments and their sum in
 * whole cents. Every write of a payment row (create, edit, delete, a record's delete taking its payments along, a
 * restore from Recently deleted) adjusts them in its own transaction through `adjustPaymentTotals`; the derived-data
 * rebuild fills them from the rows (`rebuildPaymentTotals`).
 */
export const PAYMENT_TOTALS = 'payment_totals';

/** Invoices still to be paid. */
export const AWAITING_STATUSES = ['pending', 'overdue'] as const;
/**
 * The owners whose payments are advertising spend: those that keep a totalAdvertisingSpend. Read when asked, since
 * queries.ts, which defines that map, writes through this module.
 */
const advertisingOwners = (): RecordType[] => RECORD_TYPES.filter((type) => OWNER_TOTAL_COLUMN[type] === 'totalAdvertisingSpend');

export const AWAITING_BUCKET = 'awaiting';
/** Advertising spend paid in a month ('YYYY-MM'), by payment date. */
export const spendBucket = (month: string) => `spend:${month}`;

/** A payment as stored or as presented: its entityType, invoiceStatus, paymentDate and amount decide its buckets. */
type CountedPayment = Readonly<Record<string, unknown>>;

/** Whole cents of a stored amount (a DECIMAL string on MySQL, a number on SQLite, a "12.30" string presented). */
const centsOf = (amount: unknown) => Math.round(Number(amount ?? 0) * 100);

function bucketsOf(payment: CountedPayment): string[] {
  const buckets: string[] = [];
  if ((AWAITING_STATUSES as readonly unknown[]).includes(payment.invoiceStatus)) buckets.push(AWAITING_BUCKET);
  const day = typeof payment.paymentDate === 'string' ? payment.paymentDate : null;
  if (day && advertisingOwners().includes(payment.entityType as RecordType)) buckets.push(spendBucket(day.slice(0, 7)));
  return buckets;
}

/**
 * Moves the totals from the payments `removed` to the payments `added` (an edit is both), inside the caller's
 * transaction. Buckets are written in one order, so two writers never wait on each other's rows crosswise.
 */
export async function adjustPaymentTotals(
  trx: Knex.Transaction,
  removed: readonly CountedPayment[],
  added: readonly CountedPayment[],
): Promise<void> {
  const deltas = new Map<string, { payments: number; cents: number }>();
  const add = (payment: CountedPayment, sign: number) => {
    for (const bucket of bucketsOf(payment)) {
      const delta = deltas.get(bucket) ?? { payments: 0, cents: 0 };
      delta.payments += sign;
      delta.cents += sign * centsOf(payment.amount);
      deltas.set(bucket, delta);
    }
  };
  for (const payment of removed) add(payment, -1);
  for (const payment of added) add(payment, 1);
  for (const [bucket, delta] of [...deltas].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (delta.payments === 0 && delta.cents === 0) continue;
    await trx(PAYMENT_TOTALS)
      .insert({ bucket, ...delta })
      .onConflict('bucket')
      .merge({
        payments: trx.raw('?? + ?', [`${PAYMENT_TOTALS}.payments`, delta.payments]),
        cents: trx.raw('?? + ?', [`${PAYMENT_TOTALS}.cents`, delta.cents]),
      });
  }
}

/** Fills the totals from the payment rows (the derived-data rebuild), replacing whatever they held. */
export async function rebuildPaymentTotals(db: Db): Promise<void> {
  const sumCents = db.raw('COALESCE(SUM(ROUND(?? * 100)), 0) AS cents', ['amount']);
  const [awaiting, days] = await Promise.all([
    db('payments').whereIn('invoiceStatus', AWAITING_STATUSES).select(db.raw('COUNT(*) AS payments'), sumCents).first() as Promise<
      { payments: number | string; cents: number | string } | undefined
    >,
    db('payments')
      .whereIn('entityType', advertisingOwners())
      .whereNotNull('paymentDate')
      .groupBy('paymentDate')
      .select('paymentDate', db.raw('COUNT(*) AS payments'), sumCents) as Promise<
      Array<{ paymentDate: string; payments: number | string; cents: number | string }>
    >,
  ]);
  const rows = new Map<string, { payments: number; cents: number }>([
    [AWAITING_BUCKET, { payments: Number(awaiting?.payments ?? 0), cents: Number(awaiting?.cents ?? 0) }],
  ]);
  for (const day of days) {
    const bucket = spendBucket(String(day.paymentDate).slice(0, 7));
    const total = rows.get(bucket) ?? { payments: 0, cents: 0 };
    rows.set(bucket, { payments: total.payments + Number(day.payments), cents: total.cents + Number(day.cents) });
  }
  await db(PAYMENT_TOTALS).delete();
  const filled = [...rows].filter(([, total]) => total.payments !== 0).map(([bucket, total]) => ({ bucket, ...total }));
  for (let start = 0; start < filled.length; start += 500) await db(PAYMENT_TOTALS).insert(filled.slice(start, start + 500));
}
