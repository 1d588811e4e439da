import type { z } from 'zod';
import type { RecordType } from '../record-types.js';
import type { ContactInputSchema } from './contacts.js';
import type { Audit } from './fields.js';
import type { PaymentInputSchema } from './payments.js';

/**
 * Wire shapes of what hangs off a record (presenter output of the contacts, payments and files services). A
 * contact or payment answers its form's parsed values plus what the server keeps; only the API writes them, through
 * those schemas, so the stored values are the schema's (invoiceStatus is always one of INVOICE_STATUSES).
 */
export type Contact = Audit & z.output<typeof ContactInputSchema>;

export type Payment = Audit & z.output<typeof PaymentInputSchema>;

/** GET /api/payments: one page of payments, their count and exact sum. */
export interface PaymentList {
  items: Payment[];
  /** How many payments match (the list may be one page of them). */
  total: number;
  /** The exact sum of every matching payment's amount, e.g. "0.30". */
  totalAmount: string;
}

export interface StoredFile {
  id: number;
  entityType: RecordType;
  entityId: number;
  fileName: string;
  originalName: string;
  fileType: string | null;
  fileSize: number | null;
  fileCategory: string | null;
  description: string | null;
  uploadedAt: string;
  uploadedBy: number | null;
  /** The authenticated download/preview URL. */
  url: string;
}

/** Everything a record's detail page shows about its contacts, payments and files. */
export interface Attachments {
  contacts: Contact[];
  payments: Payment[];
  /** Sum of the payments' amounts, exact, e.g. "120.50". */
  paymentsTotal: string;
  files: StoredFile[];
}
