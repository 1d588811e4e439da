import { isRouteErrorResponse, Outlet, useRouteError, type LoaderFunctionArgs, type ShouldRevalidateFunction } from 'react-router';
import type { SessionInfo } from '@shared/session.js';
import { MainLayout } from './components/layout/main-layout.js';
import { usePendingPage } from './components/layout/pending-page.js';
import { Toaster } from './components/ui/toast.js';
import { Spinner } from './components/ui/primitives.js';
import { dataSource } from './data/source.js';
import { useSession } from './hooks/use-session.js';

export function rootLoader({ context }: LoaderFunctionArgs): Promise<SessionInfo> {
  return dataSource(context).session();
}

/** Sign-in and sign-out reload the document, so the session never changes under a loaded page. */
export const rootShouldRevalidate: ShouldRevalidateFunction = () => false;

/**
 * The signed-in app's frame. The server renders the app only for a signed-in user (a signed-out visitor gets the
 * sign-in page, which is no part of the app: src/ssr/render.tsx), and the session never changes under a loaded page,
 * so there is always a user here.
 */
export function Root() {
  const { user, theme } = useSession();
  const pending = usePendingPage();
  if (!user) throw new Error('The app renders only for a signed-in user');
  return (
    <>
      <MainLayout user={user} theme={theme}>
        {pending ?? <Outlet />}
      </MainLayout>
      <Toaster />
    </>
  );
}

export function RootHydrateFallback() {
  return <Spinner label="Loading..." />;
}

export function RouteErrorBoundary() {
  const error = useRouteError();
  // A refused read carries the API's own message as its data (see gated()).
  const message = isRouteErrorResponse(error)
    ? `${error.status}: ${typeof error.data === 'string' && error.data ? error.data : error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <div className="page">
      <h1>Something went wrong</h1>
      <p role="alert">{message}</p>
      <a className="btn btn-outline" href="/">
        Back to the dashboard
      </a>
    </div>
  );
}
