import { Skeleton } from '../ui/primitives.js';
import { StatCards } from '@views/pages/dashboard/stat-cards.js';

const SKELETON_CARD_COUNT = 6;

/** While a client-side navigation to a list loads: skeleton cards (spec point 9). */
export function SkeletonCards() {
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

/** While a client-side navigation to the dashboard loads: its heading and placeholder counts. */
export function DashboardSkeleton() {
  return (
    <div className="page">
      <h1>Dashboard</h1>
      <StatCards stats={null} />
    </div>
  );
}
