import type { RouteObject } from 'react-router';

export const eventsRoutes: RouteObject[] = [
  { path: 'events', handle: { title: 'Events' }, lazy: () => import('./list-page.js') },
  { path: 'events/:id', handle: { title: 'Event' }, lazy: () => import('./detail-page.js') },
  { path: 'events/:id/edit', handle: { title: 'Edit Event' }, lazy: () => import('./edit-page.js') },
];
