/**
 * The contract between record detail pages and the contacts/payments/files area. Detail pages call
 * loadAttachments() in their loader and render these components; the attachments area implements them.
 */
import type { RecordType } from '@shared/record-types.js';
import type { DataSource } from '@views/data/source.js';
import type { Attachments, Contact } from '@shared/schemas/attachments.js';

export type { Attachments, Contact, Payment, StoredFile } from '@shared/schemas/attachments.js';
export { ContactsTab } from './contacts-tab.js';
export { ContactsCard } from './contacts-card.js';
export { PaymentsCard } from './payments-card.js';
export { FilesCard } from './files-card.js';

/** An owner's contacts (none for influencers: they carry their own email and phone), payments and files, in parallel. */
export async function loadAttachments(ds: DataSource, ownerType: RecordType, ownerId: number): Promise<Attachments> {
  const [contacts, payments, files] = await Promise.all([
    ownerType === 'influencer' ? Promise.resolve<Contact[]>([]) : ds.contactsOf(ownerType, ownerId),
    ds.paymentsOf(ownerType, ownerId),
    ds.filesOf(ownerType, ownerId),
  ]);
  return { contacts, payments: payments.items, paymentsTotal: payments.totalAmount, files };
}
