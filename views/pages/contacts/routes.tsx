import type { RouteObject } from 'react-router';

const placeholder = () => import('../system/placeholder-page.js');

export const contactsRoutes: RouteObject[] = [
  { path: 'contacts/:id', handle: { title: 'Contact' }, lazy: placeholder },
  { path: 'contacts/:id/edit', handle: { title: 'Edit Contact' }, lazy: placeholder },
  { path: 'events/:id/contacts/add', handle: { title: 'Add Contact' }, lazy: placeholder },
  { path: 'events/:eventId/contacts/:contactId/edit', handle: { title: 'Edit Contact' }, lazy: placeholder },
  { path: 'professionals/:id/contacts/add', handle: { title: 'Add Contact' }, lazy: placeholder },
  { path: 'professionals/:professionalId/contacts/:contactId/edit', handle: { title: 'Edit Contact' }, lazy: placeholder },
  { path: 'runclubs/:id/contacts/add', handle: { title: 'Add Contact' }, lazy: placeholder },
  { path: 'runclubs/:runClubId/contacts/:contactId/edit', handle: { title: 'Edit Contact' }, lazy: placeholder },
  { path: 'brands/:id/contacts/add', handle: { title: 'Add Contact' }, lazy: placeholder },
  { path: 'brands/:brandId/contacts/:contactId/edit', handle: { title: 'Edit Contact' }, lazy: placeholder },
  { path: 'media/:id/contacts/add', handle: { title: 'Add Contact' }, lazy: placeholder },
  { path: 'media/:mediaId/contacts/:contactId/edit', handle: { title: 'Edit Contact' }, lazy: placeholder },
];
