/**
 * The contract between record detail pages and the contacts/payments/files area. Detail pages read a record with
 * its attachments (the DataSource's recordPage, built on loadAttachments() in the browser) and render these
 * components; the attachments area implements them.
 */

export type { Attachments, Contact, Payment, StoredFile } from '@shared/schemas/attachments.js';
export { loadAttachments } from '@views/data/source.js';
export { ContactsTab } from './contacts-tab.js';
export { ContactsCard } from './contacts-card.js';
export { PaymentsCard } from './payments-card.js';
export { FilesCard } from './files-card.js';
