import { Link, useLoaderData } from 'react-router';
import { Skeleton } from '@views/components/ui/primitives.js';
import { dataSource, gated } from '@views/data/source.js';
import type { Stats } from '@shared/schemas/records.js';

export const loader = gated(({ context }) => dataSource(context).stats());

export const STAT_CARDS: Array<{ key: keyof Stats; label: string; to: string }> = [
  { key: 'events', label: 'Events', to: '/events' },
  { key: 'professionals', label: 'Professionals', to: '/professionals' },
  { key: 'runClubs', label: 'Run Clubs', to: '/runclubs' },
  { key: 'brands', label: 'Brands', to: '/brands' },
  { key: 'media', label: 'Media', to: '/media' },
  { key: 'influencers', label: 'Influencers', to: '/influencers' },
];

export function StatCards({ stats }: { stats: Stats | null }) {
  return (
    <div className="stat-grid">
      {STAT_CARDS.map((card) => (
        <Link key={card.key} to={card.to} className="card stat-card" data-testid={`stat-${card.key}`}>
          <span className="stat-label">{card.label}</span>
          {stats ? <span className="stat-value">{stats[card.key].toLocaleString()}</span> : <Skeleton className="stat-skeleton" />}
        </Link>
      ))}
    </div>
  );
}

export function Component() {
  const stats = useLoaderData() as Stats;
  return (
    <div className="page">
      <h1>Dashboard</h1>
      <StatCards stats={stats} />
    </div>
  );
}
