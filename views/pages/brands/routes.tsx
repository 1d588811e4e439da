import type { RouteObject } from 'react-router';

export const brandsRoutes: RouteObject[] = [
  { path: 'brands', handle: { title: 'Brands' }, lazy: () => import('./list-page.js') },
  { path: 'brands/add', handle: { title: 'Add New Brand' }, lazy: () => import('./add-page.js') },
  { path: 'brands/:id', handle: { title: 'Brand' }, lazy: () => import('./detail-page.js') },
  { path: 'brands/:id/edit', handle: { title: 'Edit Brand' }, lazy: () => import('./edit-page.js') },
];
