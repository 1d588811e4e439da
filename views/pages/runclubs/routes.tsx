import type { RouteObject } from 'react-router';
import { RECORD_TYPE_INFO } from '@shared/record-types.js';

const { segment } = RECORD_TYPE_INFO.runclub;

export const runclubsRoutes: RouteObject[] = [
  { path: `${segment}`, handle: { title: 'Run Clubs' }, lazy: () => import('./list-page.js') },
  { path: `${segment}/:id`, handle: { title: 'Run Club' }, lazy: () => import('./detail-page.js') },
  { path: `${segment}/:id/edit`, handle: { title: 'Edit Run Club' }, lazy: () => import('./edit-page.js') },
];
