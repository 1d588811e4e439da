import * as z from 'zod';
import { text } from './text.js';
/* Field helpers of the shared schemas (records, contacts, payments); the services parse with the same schemas. */

/** Forms send '' for an empty optional field; it is stored as null. */
export const blankToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value);

/** A record id from JSON or a form field: a positive integer, given as a number or as digits. */
export const ownerId = z.preprocess(
  (value) => (typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value),
  z
    .number({ message: 'entityId must be a record id' })
    .int('entityId must be a record id')
    .positive('entityId must be a record id')
    .max(4_294_967_295),
);

/** A calendar day as YYYY-MM-DD that really exists (no 2026-02-30). */
export const calendarDate = z.preprocess(
  blankToNull,
  text()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Dates must be YYYY-MM-DD')
    .refine((value) => {
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
    }, 'Dates must be real calendar days (YYYY-MM-DD)')
    .nullable()
    .default(null),
);

/** What the server keeps on every record, contact and payment: never accepted from a client, kept by PUT. */
export interface Audit {
  id: number;
  createdAt: string;
  updatedAt: string;
  createdBy: number | null;
}
