import { Link } from 'react-router';
import { RECORD_TYPE_INFO, RECORD_TYPES } from '@shared/record-types.js';
import type { Stats } from '@shared/schemas/records.js';
import { Skeleton } from '@views/components/ui/primitives.js';

/** One count card per record type, in the vocabulary's order (spec point 2: the six counts). */
const STAT_CARDS = RECORD_TYPES.map((type) => {
  const info = RECORD_TYPE_INFO[type];
  return { key: info.statsKey, label: info.plural, to: info.path };
});

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
