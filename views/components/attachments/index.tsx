/**
 * The contract between record detail pages and the contacts/payments/files area. Detail pages call
 * loadAttachments() in their loader and render these components; the attachments area implements them.
 */
import type { ContactOwnerType, RecordType } from '../../../src/services/attachments/owner-types.js';
import type { DataSource } from '../../data/source.js';
import type { Attachments, Contact, Payment, StoredFile } from './types.js';

export type { Attachments, Contact, Payment, StoredFile } from './types.js';

export async function loadAttachments(_ds: DataSource, _ownerType: RecordType, _ownerId: number): Promise<Attachments> {
  return { contacts: [], payments: [], paymentsTotal: '0.00', files: [] };
}

/** Contacts tab of event, professional and run club detail. */
export function ContactsTab(_props: { ownerType: ContactOwnerType; ownerId: number; contacts: Contact[] }) {
  return <p className="muted">No contacts added yet</p>;
}

/** Contacts card with the Add/Edit Contact dialog, on brand and media detail. */
export function ContactsCard(_props: { ownerType: ContactOwnerType; ownerId: number; contacts: Contact[] }) {
  return <p className="muted">No contacts added yet</p>;
}

export function PaymentsCard(_props: { ownerType: RecordType; ownerId: number; payments: Payment[]; total: string }) {
  return <p className="muted">No payments recorded yet</p>;
}

export function FilesCard(_props: { ownerType: RecordType; ownerId: number; files: StoredFile[] }) {
  return <p className="muted">No files uploaded yet</p>;
}
