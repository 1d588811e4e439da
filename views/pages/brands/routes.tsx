import type { RouteObject } from 'react-router';
import { RECORD_TYPE_INFO } from '@shared/record-types.js';

const { segment } = RECORD_TYPE_INFO.brand;

export const brandsRoutes: RouteObject[] = [
  { path: `${segment}`, handle: { title: 'Brands' }, lazy: () => import('./list-page.js') },
  { path: `${segment}/add`, handle: { title: 'Add New Brand' }, lazy: () => import('./add-page.js') },
  { path: `${segment}/:id`, handle: { title: 'Brand' }, lazy: () => import('./detail-page.js') },
  { path: `${segment}/:id/edit`, handle: { title: 'Edit Brand' }, lazy: () => import('./edit-page.js') },
];
