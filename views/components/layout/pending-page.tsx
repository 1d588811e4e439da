import { useLocation, useNavigation } from 'react-router';
import { RECORD_TYPE_INFO, RECORD_TYPES } from '@shared/record-types.js';
import { Skeleton } from '../ui/primitives.js';
import { StatCards } from '@views/pages/dashboard/stat-cards.js';

const SKELETON_CARD_COUNT = 6;

/** The list pages: while a client-side navigation to one loads, it shows skeleton cards (spec point 9). */
const LIST_PATHS = new Set<string>(RECORD_TYPES.map((type) => RECORD_TYPE_INFO[type].path));

function SkeletonCards() {
  return (
    <div className="card-grid" aria-busy="true" data-testid="skeleton-cards">
      {Array.from({ length: SKELETON_CARD_COUNT }, (_, i) => (
        <div key={i} className="card record-card">
          <Skeleton className="skeleton-title" />
          <Skeleton className="skeleton-line" />
          <Skeleton className="skeleton-line short" />
        </div>
      ))}
    </div>
  );
}

/** What to show in place of the current page while the next one loads, or null to keep the current page. */
export function usePendingPage() {
  const navigation = useNavigation();
  const current = useLocation();
  if (navigation.state !== 'loading' || !navigation.location) return null;
  const { pathname } = navigation.location;
  // A new search or page on the same list keeps the page (and the focused search box) in place.
  if (pathname === current.pathname) return null;
  if (pathname === '/') {
    return (
      <div className="page">
        <h1>Dashboard</h1>
        <StatCards stats={null} />
      </div>
    );
  }
  if (LIST_PATHS.has(pathname)) return <SkeletonCards />;
  return null;
}
