import type { ContactOwnerType, RecordType } from '../record-types.js';

/** Wire shapes of what hangs off a record (presenter output of the contacts, payments and files services). */
export interface Contact {
  id: number;
  firstName: string;
  lastName: string;
  jobTitle: string | null;
  email: string | null;
  phone: string | null;
  notes: string | null;
  mailchimpTags: string[];
  entityType: ContactOwnerType;
  entityId: number;
  isPrimary: boolean;
  createdAt: string;
  updatedAt: string;
  createdBy: number | null;
}

export interface Payment {
  id: number;
  entityType: RecordType;
  entityId: number;
  paymentType: string | null;
  description: string;
  amount: string;
  paymentDate: string | null;
  startDate: string | null;
  endDate: string | null;
  invoiceNumber: string | null;
  invoiceStatus: string;
  paymentMethod: string | null;
  notes: string | null;
  createdAt: string;
  updatedAt: string;
  createdBy: number | null;
}

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
