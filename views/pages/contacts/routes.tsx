import type { RouteObject } from 'react-router';
import { CONTACT_OWNER_TYPES, RECORD_TYPE_INFO } from '@shared/record-types.js';

const ownerContactPage = () => import('./owner-contact-page.js');

/** Contact detail and edit, and the owner-scoped add and edit pages of all five owner types (spec point 2). */
export const contactsRoutes: RouteObject[] = [
  { path: 'contacts', handle: { title: 'Contacts' }, lazy: () => import('./directory-page.js') },
  { path: 'contacts/:id', handle: { title: 'Contact' }, lazy: () => import('./contact-detail-page.js') },
  { path: 'contacts/:id/edit', handle: { title: 'Edit Contact' }, lazy: () => import('./contact-edit-page.js') },
  // The owner-scoped add and edit pages of the five owner types: /events/7/contacts/add, /brands/3/contacts/9/edit.
  ...CONTACT_OWNER_TYPES.flatMap((type): RouteObject[] => [
    { path: `${RECORD_TYPE_INFO[type].segment}/:id/contacts/add`, handle: { title: 'Add Contact' }, lazy: ownerContactPage },
    { path: `${RECORD_TYPE_INFO[type].segment}/:id/contacts/:contactId/edit`, handle: { title: 'Edit Contact' }, lazy: ownerContactPage },
  ]),
];
