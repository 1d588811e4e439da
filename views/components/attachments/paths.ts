import { isContactOwnerType, recordPagePath, recordTypeOfSegment, type ContactOwnerType } from '@shared/record-types.js';

export const ownerDetailPath = (type: ContactOwnerType, id: number) => recordPagePath(type, id);
/** Event, professional and run club pages show contacts on a tab; brand and media pages in a card. */
const TABBED_OWNERS: ReadonlySet<string> = new Set<ContactOwnerType>(['event', 'professional', 'runclub']);
export const hasContactsTab = (type: string) => TABBED_OWNERS.has(type);

/** Where a contact page leads back to: the owner's page, open on its Contacts tab when it has one. */
export const ownerContactsPath = (type: ContactOwnerType, id: number) =>
  hasContactsTab(type) ? `${ownerDetailPath(type, id)}?tab=contacts` : ownerDetailPath(type, id);

export const addContactPath = (type: ContactOwnerType, id: number) => `${ownerDetailPath(type, id)}/contacts/add`;
export const editContactPath = (type: ContactOwnerType, ownerId: number, contactId: number) =>
  `${ownerDetailPath(type, ownerId)}/contacts/${contactId}/edit`;

/**
 * `?return=` only ever leads back inside this site: a path with a single leading '/'. '//host' and '/\host' are
 * read by browsers as another site, and browsers drop tabs and newlines from URLs ('/\t/host' becomes '//host'),
 * so control characters and backslashes are refused too. Anything else falls back to '/'.
 */
export function safeReturnPath(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//')) return '/';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return '/';
  return value;
}

export const contactDetailPath = (contactId: number, returnTo: string) =>
  `/contacts/${contactId}?return=${encodeURIComponent(safeReturnPath(returnTo))}`;
export const contactEditPath = (contactId: number, returnTo: string) =>
  `/contacts/${contactId}/edit?return=${encodeURIComponent(safeReturnPath(returnTo))}`;

/** The owner type a contact page serves, from the first segment of its path. */
export function ownerTypeFromPath(pathname: string): ContactOwnerType | null {
  const type = recordTypeOfSegment(pathname.split('/')[1] ?? '');
  return isContactOwnerType(type) ? type : null;
}

export const fullName = (contact: { firstName: string; lastName: string }) => `${contact.firstName} ${contact.lastName}`.trim();
