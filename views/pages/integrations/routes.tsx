import type { RouteObject } from 'react-router';

const placeholder = () => import('../system/placeholder-page.js');

export const integrationsRoutes: RouteObject[] = [
  { path: 'integrations', handle: { title: 'Integrations' }, lazy: placeholder },
];
