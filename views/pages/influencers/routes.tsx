import type { RouteObject } from 'react-router';
import { RECORD_TYPE_INFO } from '@shared/record-types.js';

const { segment } = RECORD_TYPE_INFO.influencer;

export const influencersRoutes: RouteObject[] = [
  { path: `${segment}`, handle: { title: 'Influencers' }, lazy: () => import('./list-page.js') },
  { path: `${segment}/add`, handle: { title: 'Add Influencer' }, lazy: () => import('./add-page.js') },
  { path: `${segment}/:id`, handle: { title: 'Influencer' }, lazy: () => import('./detail-page.js') },
  { path: `${segment}/:id/edit`, handle: { title: 'Edit Influencer' }, lazy: () => import('./edit-page.js') },
];
