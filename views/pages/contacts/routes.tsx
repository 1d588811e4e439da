import type { RouteObject } from 'react-router';

const ownerContactPage = () => import('./owner-contact-page.js');

/** Contact detail and edit, and the owner-scoped add and edit pages of all five owner types (spec point 2). */
export const contactsRoutes: RouteObject[] = [
  { path: 'contacts/:id', handle: { title: 'Contact' }, lazy: () => import('./contact-detail-page.js') },
  { path: 'contacts/:id/edit', handle: { title: 'Edit Contact' }, lazy: () => import('./contact-edit-page.js') },
  { path: 'events/:id/contacts/add', handle: { title: 'Add Contact' }, lazy: ownerContactPage },
  { path: 'events/:eventId/contacts/:contactId/edit', handle: { title: 'Edit Contact' }, lazy: ownerContactPage },
  { path: 'professionals/:id/contacts/add', handle: { title: 'Add Contact' }, lazy: ownerContactPage },
  { path: 'professionals/:professionalId/contacts/:contactId/edit', handle: { title: 'Edit Contact' }, lazy: ownerContactPage },
  { path: 'runclubs/:id/contacts/add', handle: { title: 'Add Contact' }, lazy: ownerContactPage },
  { path: 'runclubs/:runClubId/contacts/:contactId/edit', handle: { title: 'Edit Contact' }, lazy: ownerContactPage },
  { path: 'brands/:id/contacts/add', handle: { title: 'Add Contact' }, lazy: ownerContactPage },
  { path: 'brands/:brandId/contacts/:contactId/edit', handle: { title: 'Edit Contact' }, lazy: ownerContactPage },
  { path: 'media/:id/contacts/add', handle: { title: 'Add Contact' }, lazy: ownerContactPage },
  { path: 'media/:mediaId/contacts/:contactId/edit', handle: { title: 'Edit Contact' }, lazy: ownerContactPage },
];
