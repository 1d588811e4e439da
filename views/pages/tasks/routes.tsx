import type { RouteObject } from 'react-router';

/** My tasks (issue 33). */
export const tasksRoutes: RouteObject[] = [{ path: 'tasks', lazy: () => import('./tasks-page.js') }];
