import type { RouteObject } from 'react-router';

const placeholder = () => import('../system/placeholder-page.js');

export const importsRoutes: RouteObject[] = [
  { path: 'events/bulk-import', handle: { title: 'Bulk Import Events' }, lazy: placeholder },
  { path: 'brands/bulk-import', handle: { title: 'Bulk Import Brands' }, lazy: placeholder },
];
