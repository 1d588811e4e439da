import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider, type RouteObject } from 'react-router';
import type { Role } from '@shared/roles.js';
import type { SessionInfo } from '@shared/session.js';
import { Toaster } from '@views/components/ui/toast.js';

const testSession: SessionInfo = {
  user: {
    id: 1,
    email: 'staff@example.org',
    firstName: 'Sam',
    lastName: 'Staff',
    role: 'staff',
    isActive: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    lastLogin: null,
  },
  needsSetup: false,
  locale: 'en-AU',
  timeZone: 'Australia/Sydney',
  theme: 'system',
  env: { publicSiteUrl: 'https://run.example.org', wordpressAdminUrl: 'https://cms.example.org' },
};

/**
 * Renders one page module under a root route that carries the session (as the app's root does), with the
 * loader data given up front as hydration data, plus stub pages for wherever the page navigates to.
 */
export function renderPage(options: {
  path: string;
  url: string;
  Component: () => React.ReactNode;
  data?: unknown;
  /** Loaders the router runs on later navigations (after a save, a delete, a search). */
  loader?: RouteObject['loader'];
  /** The page's route action (its forms post to it). */
  action?: RouteObject['action'];
  others?: RouteObject[];
  /** Who is signed in: staff unless a test says otherwise. */
  role?: Role;
}) {
  const session: SessionInfo = { ...testSession, user: { ...testSession.user!, role: options.role ?? 'staff' } };
  const router = createMemoryRouter(
    [
      {
        id: 'root',
        path: '/',
        loader: () => session,
        Component: () => (
          <>
            <Outlet />
            <Toaster />
          </>
        ),
        children: [
          {
            id: 'page',
            path: options.path.replace(/^\//, ''),
            loader: options.loader ?? (() => options.data ?? null),
            action: options.action,
            Component: options.Component,
          },
          ...(options.others ?? []),
          { path: '*', Component: () => <p data-testid="elsewhere">elsewhere</p> },
        ],
      },
    ],
    { initialEntries: [options.url], hydrationData: { loaderData: { root: session, page: options.data ?? null } } },
  );
  return { router, ...render(<RouterProvider router={router} />) };
}

/** The one visible toast once it reads `title` (the toast store outlives a test, so wait for the new one). */
export async function findToast(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const toast = screen.getByTestId('toast');
    if (toast.querySelector('.toast-title')?.textContent !== title) throw new Error(`toast reads ${toast.textContent}`);
    return toast;
  });
}
