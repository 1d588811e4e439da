import type { RouteObject } from 'react-router';

export const mediaRoutes: RouteObject[] = [
  { path: 'media', handle: { title: 'Media Management' }, lazy: () => import('./list-page.js') },
  { path: 'media/add', handle: { title: 'Add Media Outlet' }, lazy: () => import('./add-page.js') },
  { path: 'media/:id', handle: { title: 'Media Outlet' }, lazy: () => import('./detail-page.js') },
  { path: 'media/:id/edit', handle: { title: 'Edit Media Outlet' }, lazy: () => import('./edit-page.js') },
];
