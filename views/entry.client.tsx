import { createBrowserRouter, matchRoutes, RouterProvider, type HydrationState, type RouteObject } from 'react-router';
import { HYDRATION_DATA_ID } from '@shared/hydration.js';
import { hydratePage } from './hydrate.js';
import { routes } from './routes.js';

/** Load the lazy route modules of the first page before hydrating, so the first render matches the server's. */
async function resolveInitialLazyRoutes(routeTable: RouteObject[]) {
  const matches = matchRoutes(routeTable, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const module = await route.lazy();
      Object.assign(route, { ...module, lazy: undefined });
    }),
  );
}

declare global {
  interface Window {
    /** Where createBrowserRouter looks for the server's data. */
    __staticRouterHydrationData?: HydrationState;
  }
}

/** The server's loader data, handed to createBrowserRouter where it looks for it (it revives route errors there). */
function readHydrationData() {
  const element = document.getElementById(HYDRATION_DATA_ID);
  if (element?.textContent) window.__staticRouterHydrationData = JSON.parse(element.textContent) as HydrationState;
}

readHydrationData();
await resolveInitialLazyRoutes(routes);
hydratePage(<RouterProvider router={createBrowserRouter(routes)} />);
