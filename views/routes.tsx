import type { RouteObject } from 'react-router';
import { brandsRoutes } from './pages/brands/routes.js';
import { contactsRoutes } from './pages/contacts/routes.js';
import { duplicatesRoutes } from './pages/duplicates/routes.js';
import { eventsRoutes } from './pages/events/routes.js';
import { importsRoutes } from './pages/imports/routes.js';
import { influencersRoutes } from './pages/influencers/routes.js';
import { integrationsRoutes } from './pages/integrations/routes.js';
import { jobsRoutes } from './pages/jobs/routes.js';
import { mediaRoutes } from './pages/media/routes.js';
import { professionalsRoutes } from './pages/professionals/routes.js';
import { runclubsRoutes } from './pages/runclubs/routes.js';
import { settingsRoutes } from './pages/settings/routes.js';
import { tasksRoutes } from './pages/tasks/routes.js';
import { Root, RootHydrateFallback, rootLoader, rootShouldRevalidate, RouteErrorBoundary } from './root.js';

/**
 * The one route table (spec point 2), shared by the server and the browser. Pages load lazily, so each screen
 * ships only its own code. Areas own their route lists; static segments (e.g. /events/bulk-import) outrank
 * dynamic ones (/events/:id) whatever the order.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    path: '/',
    loader: rootLoader,
    shouldRevalidate: rootShouldRevalidate,
    Component: Root,
    HydrateFallback: RootHydrateFallback,
    ErrorBoundary: RouteErrorBoundary,
    children: [
      {
        ErrorBoundary: RouteErrorBoundary,
        children: [
          { index: true, lazy: () => import('./pages/dashboard/dashboard-page.js') },
          ...eventsRoutes,
          ...professionalsRoutes,
          ...runclubsRoutes,
          ...brandsRoutes,
          ...mediaRoutes,
          ...influencersRoutes,
          ...contactsRoutes,
          ...importsRoutes,
          ...integrationsRoutes,
          ...jobsRoutes,
          ...tasksRoutes,
          ...settingsRoutes,
          ...duplicatesRoutes,
          { path: '*', lazy: () => import('./pages/system/not-found-page.js') },
        ],
      },
    ],
  },
];
