import type { RouteObject } from 'react-router';
import { RECORD_TYPE_INFO } from '@shared/record-types.js';

const { segment } = RECORD_TYPE_INFO.professional;

export const professionalsRoutes: RouteObject[] = [
  { path: `${segment}`, handle: { title: 'Professionals' }, lazy: () => import('./list-page.js') },
  { path: `${segment}/add`, handle: { title: 'Add Unpublished Professional' }, lazy: () => import('./add-page.js') },
  { path: `${segment}/:id`, handle: { title: 'Professional' }, lazy: () => import('./detail-page.js') },
  { path: `${segment}/:id/edit`, handle: { title: 'Edit Professional' }, lazy: () => import('./edit-page.js') },
];
