import type { RouteObject } from 'react-router';

/** Possible duplicates and their merge (issue 34): screens beside the spec's, linked from the settings menu. */
export const duplicatesRoutes: RouteObject[] = [
  { path: 'duplicates', handle: { title: 'Possible duplicates' }, lazy: () => import('./duplicates-page.js') },
  { path: 'duplicates/merge', handle: { title: 'Merge duplicates' }, lazy: () => import('./merge-page.js') },
];
