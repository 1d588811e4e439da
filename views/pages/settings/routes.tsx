import type { RouteObject } from 'react-router';

export const settingsRoutes: RouteObject[] = [
  { path: 'settings/users', handle: { title: 'Users' }, lazy: () => import('./users-page.js') },
  { path: 'settings/webhooks', handle: { title: 'Webhooks' }, lazy: () => import('./webhooks-page.js') },
  { path: 'settings/deleted', handle: { title: 'Recently deleted' }, lazy: () => import('./deleted-page.js') },
  { path: 'settings/backups', handle: { title: 'Backups' }, lazy: () => import('./backups-page.js') },
  { path: 'settings/account', handle: { title: 'Account' }, lazy: () => import('./account-page.js') },
  { path: 'settings/activity', handle: { title: 'Activity log' }, lazy: () => import('./activity-page.js') },
  { path: 'settings/api-tokens', handle: { title: 'API tokens' }, lazy: () => import('./api-tokens-page.js') },
];
