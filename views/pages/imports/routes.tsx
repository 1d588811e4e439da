import type { RouteObject } from 'react-router';

/**
 * The two import screens (spec point 2); each loads its own code, and the CSV parser only with them. Beside them the
 * general import of any list (issue 34, docs/decisions/0107-general-import.md), also loaded on its own.
 */
export const importsRoutes: RouteObject[] = [
  { path: 'events/bulk-import', handle: { title: 'Bulk Import Events' }, lazy: () => import('./events-import-page.js') },
  { path: 'brands/bulk-import', handle: { title: 'Bulk Import Brands' }, lazy: () => import('./brands-import-page.js') },
  { path: 'imports/new', handle: { title: 'Import a list' }, lazy: () => import('./general-import-page.js') },
];
