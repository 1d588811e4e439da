import { useRouteLoaderData } from 'react-router';
import type { SessionInfo } from '@shared/session.js';

/** The root loader's data: the signed-in user and the locale and zone pages format with. */
export function useSession(): SessionInfo {
  const data = useRouteLoaderData('root') as SessionInfo | undefined;
  if (!data) throw new Error('useSession() used outside the root route');
  return data;
}
