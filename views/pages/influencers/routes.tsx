import type { RouteObject } from 'react-router';

export const influencersRoutes: RouteObject[] = [
  { path: 'influencers', handle: { title: 'Influencers' }, lazy: () => import('./list-page.js') },
  { path: 'influencers/add', handle: { title: 'Add Influencer' }, lazy: () => import('./add-page.js') },
  { path: 'influencers/:id', handle: { title: 'Influencer' }, lazy: () => import('./detail-page.js') },
  { path: 'influencers/:id/edit', handle: { title: 'Edit Influencer' }, lazy: () => import('./edit-page.js') },
];
