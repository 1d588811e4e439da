import type { Knex } from 'knex';
import type { Payment, PaymentList } from '@shared/schemas/attachments.js';
import { sumMoney, toUnits } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import { MAX_AMOUNT, PaymentInputSchema } from '@shared/schemas/payments.js';
import { assertOwnerExists, lockOwner, mergeOver, ownersInLockOrder } from '../attachments/owners.js';
import type { RecordType } from '@shared/record-types.js';
import type { Actor, AppContext } from '../context.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { updateRecordRows } from '../records/writes.js';
import { changedFields, historyActorOf, recordHistory } from '../history/service.js';
import { requireRole } from '../roles.js';
import { assertVersion, takeVersion } from '../versions.js';
import { parseInput } from '../validate.js';
import {
  countPayments,
  deletePaymentRow,
  findPayment,
  insertPayment,
  listPaymentRows,
  sumPayments,
  OWNER_TOTAL_COLUMN,
  updatePaymentRow,
  type PaymentFilter,
} from './queries.js';

export async function listPayments(ctx: AppContext, filter: PaymentFilter, page = { limit: 200, offset: 0 }): Promise<PaymentList> {
  if (filter.entityType && filter.entityId !== undefined) await assertOwnerExists(ctx.db, filter.entityType, filter.entityId);
  return paymentPage(ctx.db, filter, page);
}

/**
 * A page of payments with their count and exact total, without checking the owner. A first page that holds them
 * all is its own count and total (one query); only a longer list asks the database for them.
 */
export async function paymentPage(db: Knex, filter: PaymentFilter, page = { limit: 200, offset: 0 }): Promise<PaymentList> {
  const items = await listPaymentRows(db, filter, page);
  if (page.offset === 0 && items.length < page.limit) {
    return { items, total: items.length, totalAmount: sumMoney(items.map((payment) => payment.amount)) };
  }
  const [total, totalAmount] = await Promise.all([countPayments(db, filter), sumPayments(db, filter)]);
  return { items, total, totalAmount };
}

export async function getPayment(ctx: AppContext, id: number): Promise<Payment> {
  const payment = await findPayment(ctx.db, id);
  if (!payment) throw notFound('Payment not found');
  return payment;
}

export async function createPayment(ctx: AppContext, actor: Actor, body: unknown): Promise<Payment> {
  requireRole(actor, 'staff');
  const input = parseInput(PaymentInputSchema, body);
  const now = ctx.clock.now();
  const id = await withTransaction(ctx, async (trx) => {
    await lockOwner(trx, input.entityType, input.entityId);
    const newId = await insertPayment(trx, { ...input, createdAt: now, updatedAt: now, createdBy: actor.userId });
    await refreshOwnerTotal(trx, input.entityType, input.entityId);
    await recordHistory(trx, ctx, await historyActorOf(trx, actor), [
      { entityType: 'payment', entityId: newId, action: 'create', changes: input },
    ]);
    return newId;
  });
  ctx.log.info({ event: 'payment_created', paymentId: id, owner: `${input.entityType}:${input.entityId}` }, 'payment created');
  return getPayment(ctx, id);
}

/** PUT sends the payment's fields; any left out keep their stored value, and the result is validated whole. */
export async function updatePayment(ctx: AppContext, actor: Actor, id: number, body: unknown): Promise<Payment> {
  requireRole(actor, 'staff');
  const { version, body: fields } = takeVersion(body);
  const existing = await getPayment(ctx, id);
  const input = parseInput(PaymentInputSchema, mergeOver(PaymentInputSchema, existing, fields));
  await withTransaction(ctx, async (trx) => {
    const owners = ownersInLockOrder([existing.entityType, existing.entityId], [input.entityType, input.entityId]);
    for (const [type, ownerId] of owners) await lockOwner(trx, type, ownerId);
    // Read again under the lock: fields the body leaves out keep what is stored now, not what was read before.
    const current = await findPayment(trx, id);
    if (!current) throw notFound('Payment not found');
    if (current.entityType !== existing.entityType || current.entityId !== existing.entityId)
      throw conflict('The payment was moved meanwhile; try again');
    await assertVersion(trx, { entityType: 'payment', entityId: id, noun: 'payment' }, current.updatedAt, version);
    const fresh = parseInput(PaymentInputSchema, mergeOver(PaymentInputSchema, current, fields));
    await updatePaymentRow(trx, id, { ...fresh, updatedAt: ctx.clock.now() });
    for (const [type, ownerId] of owners) await refreshOwnerTotal(trx, type, ownerId);
    const after = (await findPayment(trx, id))!;
    const changes = changedFields(current, after);
    if (Object.keys(changes).length)
      await recordHistory(trx, ctx, await historyActorOf(trx, actor), [
        { entityType: 'payment', entityId: id, action: 'update', changes, record: after },
      ]);
  });
  ctx.log.info({ event: 'payment_updated', paymentId: id, userId: actor.userId }, 'payment updated');
  return getPayment(ctx, id);
}

export async function deletePayment(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  requireRole(actor, 'staff');
  const existing = await getPayment(ctx, id);
  await withTransaction(ctx, async (trx) => {
    await lockOwner(trx, existing.entityType, existing.entityId);
    const current = await findPayment(trx, id);
    if (!current) throw notFound('Payment not found');
    if (current.entityType !== existing.entityType || current.entityId !== existing.entityId)
      throw conflict('The payment was moved meanwhile; try again');
    await deletePaymentRow(trx, id);
    await refreshOwnerTotal(trx, existing.entityType, existing.entityId);
    await recordHistory(trx, ctx, await historyActorOf(trx, actor), [
      { entityType: 'payment', entityId: id, action: 'delete', changes: current },
    ]);
  });
  ctx.log.info({ event: 'payment_deleted', paymentId: id, userId: actor.userId }, 'payment deleted');
}

/**
 * Recomputes the owner's stored total from its payments (never by adding a difference), inside the payment's own
 * transaction and under the owner lock, so the total always equals the sum of the rows.
 */
async function refreshOwnerTotal(trx: Knex.Transaction, type: RecordType, id: number): Promise<void> {
  const total = await sumPayments(trx, { entityType: type, entityId: id });
  if (toUnits(total, 2) > toUnits(MAX_AMOUNT, 2)) throw badRequest(`The payments of one record cannot add up to more than ${MAX_AMOUNT}`);
  const column = OWNER_TOTAL_COLUMN[type];
  if (column) await updateRecordRows(trx, type, [id], { [column]: total });
}
