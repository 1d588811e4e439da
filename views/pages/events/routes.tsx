import type { RouteObject } from 'react-router';
import { RECORD_TYPE_INFO } from '@shared/record-types.js';

const { segment } = RECORD_TYPE_INFO.event;

export const eventsRoutes: RouteObject[] = [
  { path: `${segment}`, handle: { title: 'Events' }, lazy: () => import('./list-page.js') },
  { path: `${segment}/:id`, handle: { title: 'Event' }, lazy: () => import('./detail-page.js') },
  { path: `${segment}/:id/edit`, handle: { title: 'Edit Event' }, lazy: () => import('./edit-page.js') },
];
