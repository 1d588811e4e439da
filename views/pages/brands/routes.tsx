import type { RouteObject } from 'react-router';

const placeholder = () => import('../system/placeholder-page.js');

export const brandsRoutes: RouteObject[] = [
  { path: 'brands', handle: { title: 'Brands' }, lazy: placeholder },
  { path: 'brands/add', handle: { title: 'Add New Brand' }, lazy: placeholder },
  { path: 'brands/:id', handle: { title: 'Brand' }, lazy: placeholder },
  { path: 'brands/:id/edit', handle: { title: 'Edit Brand' }, lazy: placeholder },
];
