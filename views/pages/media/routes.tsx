import type { RouteObject } from 'react-router';
import { RECORD_TYPE_INFO } from '@shared/record-types.js';

const { segment } = RECORD_TYPE_INFO.media;

export const mediaRoutes: RouteObject[] = [
  { path: `${segment}`, handle: { title: 'Media Management' }, lazy: () => import('./list-page.js') },
  { path: `${segment}/add`, handle: { title: 'Add Media Outlet' }, lazy: () => import('./add-page.js') },
  { path: `${segment}/:id`, handle: { title: 'Media Outlet' }, lazy: () => import('./detail-page.js') },
  { path: `${segment}/:id/edit`, handle: { title: 'Edit Media Outlet' }, lazy: () => import('./edit-page.js') },
];
