import type { RouteObject } from 'react-router';

const placeholder = () => import('../system/placeholder-page.js');

export const runclubsRoutes: RouteObject[] = [
  { path: 'runclubs', handle: { title: 'Run Clubs' }, lazy: placeholder },
  { path: 'runclubs/:id', handle: { title: 'Run Club' }, lazy: placeholder },
  { path: 'runclubs/:id/edit', handle: { title: 'Edit Run Club' }, lazy: placeholder },
];
