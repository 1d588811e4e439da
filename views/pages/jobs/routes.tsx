import type { RouteObject } from 'react-router';

/** Recent and running background jobs (issue 14), beside the spec's screens. */
export const jobsRoutes: RouteObject[] = [{ path: 'jobs', handle: { title: 'Jobs' }, lazy: () => import('./jobs-page.js') }];
