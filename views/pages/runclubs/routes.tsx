import type { RouteObject } from 'react-router';

export const runclubsRoutes: RouteObject[] = [
  { path: 'runclubs', handle: { title: 'Run Clubs' }, lazy: () => import('./list-page.js') },
  { path: 'runclubs/:id', handle: { title: 'Run Club' }, lazy: () => import('./detail-page.js') },
  { path: 'runclubs/:id/edit', handle: { title: 'Edit Run Club' }, lazy: () => import('./edit-page.js') },
];
