import type { RouteObject } from 'react-router';

const placeholder = () => import('../system/placeholder-page.js');

export const mediaRoutes: RouteObject[] = [
  { path: 'media', handle: { title: 'Media Management' }, lazy: placeholder },
  { path: 'media/add', handle: { title: 'Add Media Outlet' }, lazy: placeholder },
  { path: 'media/:id', handle: { title: 'Media Outlet' }, lazy: placeholder },
  { path: 'media/:id/edit', handle: { title: 'Edit Media Outlet' }, lazy: placeholder },
];
