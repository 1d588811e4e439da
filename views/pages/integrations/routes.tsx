import type { RouteObject } from 'react-router';

export const integrationsRoutes: RouteObject[] = [
  { path: 'integrations', handle: { title: 'Integrations' }, lazy: () => import('./integrations-page.js') },
];
