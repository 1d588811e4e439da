import { useRouteLoaderData } from 'react-router';
import { roleAllows, type Role } from '@shared/roles.js';
import type { SessionInfo } from '@shared/session.js';

/** The root loader's data: the signed-in user and the locale and zone pages format with. */
export function useSession(): SessionInfo {
  const data = useRouteLoaderData('root') as SessionInfo | undefined;
  if (!data) throw new Error('useSession() used outside the root route');
  return data;
}

/**
 * Whether the signed-in user may make changes (staff and admins). Write buttons hide for a viewer; the services
 * refuse the write anyway (403), so this only spares them buttons that cannot work.
 */
export function useCanWrite(): boolean {
  return useRoleAllows('staff');
}

/** Whether the signed-in user is an admin: only admins set the server's settings and use its terminal. */
export function useIsAdmin(): boolean {
  return useRoleAllows('admin');
}

function useRoleAllows(needed: Role): boolean {
  const { user } = useSession();
  return user !== null && roleAllows(user.role, needed);
}
