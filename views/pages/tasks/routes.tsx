import type { RouteObject } from 'react-router';

/** My tasks (issue 33). */
export const tasksRoutes: RouteObject[] = [{ path: 'tasks', handle: { title: 'My tasks' }, lazy: () => import('./tasks-page.js') }];
