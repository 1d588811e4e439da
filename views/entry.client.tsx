import { StrictMode, useEffect, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider, type HydrationState, type RouteObject } from 'react-router';
import { HYDRATION_DATA_ID } from '@shared/hydration.js';
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

function rememberTimeZone() {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zone) document.cookie = `tz=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax`;
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

/**
 * Says when React has hydrated the page (its effects run after the first commit): `data-hydrated` on <html> and a
 * `hydrated` performance mark, so tests and measurements can tell a painted page from an interactive one.
 */
function MarkHydrated({ children }: { children: ReactNode }) {
  useEffect(() => {
    performance.mark('hydrated');
    document.documentElement.setAttribute('data-hydrated', '');
  }, []);
  return children;
}

rememberTimeZone();
readHydrationData();
await resolveInitialLazyRoutes(routes);
const router = createBrowserRouter(routes);
hydrateRoot(
  document.getElementById('root')!,
  <StrictMode>
    <MarkHydrated>
      <RouterProvider router={router} />
    </MarkHydrated>
  </StrictMode>,
);
