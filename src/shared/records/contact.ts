import type { Fields } from './define.js';

/**
 * The contacts' fields as the general import reads them (docs/decisions/0107-general-import.md), in the style of
 * the record definitions: the label and export header the contacts directory uses, and the other spellings a file
 * may use. The rules stay in src/shared/schemas/contacts.ts (ContactInputSchema), which the contact forms use; the
 * contact pages do not read this.
 */
export const CONTACT_FIELDS = {
  firstName: { label: 'First name', exportHeader: 'First Name', import: { header: 'First Name', synonyms: ['Given name', 'Forename'] } },
  lastName: { label: 'Last name', exportHeader: 'Last Name', import: { header: 'Last Name', synonyms: ['Surname', 'Family name'] } },
  email: {
    label: 'Email',
    exportHeader: 'Email',
    import: { header: 'Email', synonyms: ['E-mail', 'Email address', 'Mail'] },
    duplicateKey: true,
  },
  phone: { label: 'Phone', exportHeader: 'Phone', import: { header: 'Phone', synonyms: ['Telephone', 'Mobile', 'Phone number'] } },
  jobTitle: {
    label: 'Job title',
    exportHeader: 'Job Title',
    import: { header: 'Job Title', synonyms: ['Title', 'Position', 'Current Job', 'Role'] },
  },
  isPrimary: { label: 'Primary contact', exportHeader: 'Primary', import: { header: 'Primary', synonyms: ['Is primary'] } },
  mailchimpTags: { label: 'Mailchimp tags', exportHeader: 'Tags', import: { header: 'Tags', synonyms: ['Mailchimp tags'] } },
  notes: { label: 'Notes', exportHeader: 'Notes', import: { header: 'Notes', synonyms: ['Comments'] } },
  entityType: { label: 'Owner type', exportHeader: 'Owner Type', import: { header: 'Owner Type', synonyms: ['Entity type'] } },
  entityId: { label: 'Owner', exportHeader: 'Owner', import: { header: 'Owner', synonyms: ['Owner name', 'Owner id', 'Entity id'] } },
} as const satisfies Fields;
