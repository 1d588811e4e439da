import type { Router } from 'express';
import { parseRecordType } from '@services/attachments/owners.js';
import { badRequest } from '@services/errors.js';
import { createPayment, deletePayment, listPayments, updatePayment } from '@services/payments/service.js';
import type { PaymentFilter } from '@services/payments/queries.js';
import { defineRead } from '../reads.js';
import { writesRouter } from './writes.js';

const MAX_PAGE = 500;

function pageNumber(value: string | null, fallback: number, max: number, name: string): number {
  if (value === null || value === '') return fallback;
  if (!/^\d{1,6}$/.test(value) || Number(value) > max) throw badRequest(`${name} must be a whole number up to ${max}`);
  return Number(value);
}

function filterOf(query: URLSearchParams): PaymentFilter {
  const type = query.get('entityType');
  const id = query.get('entityId');
  if (!type && !id) return {};
  if (!type || !id) throw badRequest('Give both entityType and entityId, or neither');
  const entityId = Number(id);
  if (!/^\d{1,10}$/.test(id) || entityId < 1) throw badRequest('entityId must be a record id');
  return { entityType: parseRecordType(type), entityId };
}

export const paymentsReads = [
  defineRead('/api/payments', ({ ctx, query }) =>
    listPayments(ctx, filterOf(query), {
      limit: pageNumber(query.get('limit'), 200, MAX_PAGE, 'limit'),
      offset: pageNumber(query.get('offset'), 0, 1_000_000, 'offset'),
    }),
  ),
];

export function paymentsRouter(): Router {
  return writesRouter('payments', 'Payment', { create: createPayment, update: updatePayment, remove: deletePayment });
}
