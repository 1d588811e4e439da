import type { RouteObject } from 'react-router';

export const settingsRoutes: RouteObject[] = [
  { path: 'settings/users', handle: { title: 'Users' }, lazy: () => import('./users-page.js') },
  { path: 'settings/deleted', handle: { title: 'Recently deleted' }, lazy: () => import('./deleted-page.js') },
  { path: 'settings/account', handle: { title: 'Account' }, lazy: () => import('./account-page.js') },
  // Open without signing in: the one-time token in the path is the proof (issue 13).
  { path: 'set-password/:token', handle: { title: 'Set your password', open: true }, lazy: () => import('./set-password-page.js') },
];
