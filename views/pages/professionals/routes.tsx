import type { RouteObject } from 'react-router';

export const professionalsRoutes: RouteObject[] = [
  { path: 'professionals', handle: { title: 'Professionals' }, lazy: () => import('./list-page.js') },
  { path: 'professionals/add', handle: { title: 'Add Unpublished Professional' }, lazy: () => import('./add-page.js') },
  { path: 'professionals/:id', handle: { title: 'Professional' }, lazy: () => import('./detail-page.js') },
  { path: 'professionals/:id/edit', handle: { title: 'Edit Professional' }, lazy: () => import('./edit-page.js') },
];
