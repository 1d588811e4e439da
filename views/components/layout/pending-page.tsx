import { useLocation, useNavigation } from 'react-router';
import { RECORD_TYPE_INFO, RECORD_TYPES } from '@shared/record-types.js';
import { useLoadedAfterHydration } from '@views/hooks/use-loaded-after-hydration.js';

const loadPendingViews = () => import('./pending-views.js');

/** The list pages: while a client-side navigation to one loads, it shows skeleton cards (spec point 9). */
const LIST_PATHS = new Set<string>(RECORD_TYPES.map((type) => RECORD_TYPE_INFO[type].path));

/** What to show in place of the current page while the next one loads, or null to keep the current page. */
export function usePendingPage() {
  const navigation = useNavigation();
  const current = useLocation();
  // Shown only during client-side navigations, so loaded after hydration.
  const views = useLoadedAfterHydration(loadPendingViews);
  if (navigation.state !== 'loading' || !navigation.location) return null;
  const { pathname } = navigation.location;
  // A new search or page on the same list keeps the page (and the focused search box) in place.
  if (pathname === current.pathname) return null;
  if (!views) return null;
  if (pathname === '/') return <views.DashboardSkeleton />;
  if (LIST_PATHS.has(pathname)) return <views.SkeletonCards />;
  return null;
}
