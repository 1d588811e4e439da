import type { RouteObject } from 'react-router';

const placeholder = () => import('../system/placeholder-page.js');

export const influencersRoutes: RouteObject[] = [
  { path: 'influencers', handle: { title: 'Influencers' }, lazy: placeholder },
  { path: 'influencers/add', handle: { title: 'Add Influencer' }, lazy: placeholder },
  { path: 'influencers/:id', handle: { title: 'Influencer' }, lazy: placeholder },
  { path: 'influencers/:id/edit', handle: { title: 'Edit Influencer' }, lazy: placeholder },
];
