import {
  isRouteErrorResponse,
  Outlet,
  useMatches,
  useRouteError,
  type LoaderFunctionArgs,
  type ShouldRevalidateFunction,
} from 'react-router';
import type { SessionInfo } from '@shared/session.js';
import { MainLayout } from './components/layout/main-layout.js';
import { usePendingPage } from './components/layout/pending-page.js';
import { Toaster } from './components/ui/toast.js';
import { Spinner } from './components/ui/primitives.js';
import { dataSource } from './data/source.js';
import { useSession } from './hooks/use-session.js';
import { LoginScreen, SetupScreen } from './pages/auth/login-screen.js';

export function rootLoader({ context }: LoaderFunctionArgs): Promise<SessionInfo> {
  return dataSource(context).session();
}

/** Sign-in and sign-out reload the document, so the session never changes under a loaded page. */
export const rootShouldRevalidate: ShouldRevalidateFunction = () => false;

/** The access gate: without a user only the sign-in (or first-run) screen renders, at whatever URL was asked for. */
export function Root() {
  const session = useSession();
  const pending = usePendingPage();
  // A page open to anyone with its link (the one-time "Set your password" page) renders without the gate.
  const open = useMatches().some((match) => (match.handle as { open?: boolean } | undefined)?.open);
  return (
    <>
      {open ? (
        <Outlet />
      ) : session.user ? (
        <MainLayout user={session.user} theme={session.theme}>
          {pending ?? <Outlet />}
        </MainLayout>
      ) : session.needsSetup ? (
        <SetupScreen />
      ) : (
        <LoginScreen />
      )}
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
