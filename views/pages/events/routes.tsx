import type { RouteObject } from 'react-router';

const placeholder = () => import('../system/placeholder-page.js');

export const eventsRoutes: RouteObject[] = [
  { path: 'events', handle: { title: 'Events' }, lazy: placeholder },
  { path: 'events/:id', handle: { title: 'Event' }, lazy: placeholder },
  { path: 'events/:id/edit', handle: { title: 'Edit Event' }, lazy: placeholder },
];
