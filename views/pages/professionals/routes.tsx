import type { RouteObject } from 'react-router';

const placeholder = () => import('../system/placeholder-page.js');

export const professionalsRoutes: RouteObject[] = [
  { path: 'professionals', handle: { title: 'Professionals' }, lazy: placeholder },
  { path: 'professionals/add', handle: { title: 'Add Unpublished Professional' }, lazy: placeholder },
  { path: 'professionals/:id', handle: { title: 'Professional' }, lazy: placeholder },
  { path: 'professionals/:id/edit', handle: { title: 'Edit Professional' }, lazy: placeholder },
];
