import * as z from 'zod';
import { RECORD_TYPES } from '../record-types.js';
import { blankToNull, calendarDate, ownerId } from './fields.js';
import { text } from './text.js';
import { INVOICE_STATUSES } from '../choices.js';

export { INVOICE_STATUSES } from '../choices.js';

/** DECIMAL(10,2): up to 8 whole digits and 2 decimals; sent as text (or a plain number) and kept exact. */
export const MAX_AMOUNT = '99999999.99';
const AMOUNT_PATTERN = /^\d{1,8}(\.\d{1,2})?$/;

const amount = z.preprocess(
  (value) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : value),
  text('Amount is required')
    .min(1, 'Amount is required')
    .regex(AMOUNT_PATTERN, 'Amount must be a number of at most 99999999.99 with up to 2 decimal places'),
);

const optionalText = (max: number) => z.preprocess(blankToNull, text().trim().max(max).nullable().default(null));

export const PaymentInputSchema = z
  .object({
    entityType: z.enum(RECORD_TYPES, { message: `entityType must be one of ${RECORD_TYPES.join(', ')}` }),
    entityId: ownerId,
    paymentType: optionalText(100),
    description: text('Description is required').trim().min(1, 'Description is required').max(1000),
    amount,
    paymentDate: calendarDate,
    startDate: calendarDate,
    endDate: calendarDate,
    invoiceNumber: optionalText(100),
    invoiceStatus: z.preprocess(blankToNull, z.enum(INVOICE_STATUSES).nullable().default(null)).transform((value) => value ?? 'pending'),
    paymentMethod: optionalText(100),
    notes: optionalText(10_000),
  })
  .strict()
  .refine((payment) => !payment.startDate || !payment.endDate || payment.startDate <= payment.endDate, {
    message: 'End date must not be before start date',
    path: ['endDate'],
  });
