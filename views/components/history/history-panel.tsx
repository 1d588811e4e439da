import type { RecordType } from '@shared/record-types.js';
import { useLoadedAfterHydration } from '@views/hooks/use-loaded-after-hydration.js';

const loadHistoryEntries = () => import('./history-entries.js');

/**
 * The History of a record, contact, payment or file (issue 13): newest first, a page at a time, each change as a
 * readable line ("Anna changed Invoice status from pending to paid"). It reads `GET {apiPath}/history` once it is
 * shown (a tab opened), so a detail page costs nothing more until someone looks.
 */
export function HistoryPanel({ apiPath, noun, ownerType }: { apiPath: string; noun: string; ownerType?: RecordType }) {
  // The entries (and what reads and words them) load after hydration; until then the panel says it is loading.
  const entries = useLoadedAfterHydration(loadHistoryEntries);
  return (
    <section className="card history-panel" aria-label="History">
      <h2 className="card-title">History</h2>
      {entries ? (
        <entries.HistoryEntries apiPath={apiPath} noun={noun} ownerType={ownerType} />
      ) : (
        <p className="muted">Loading history...</p>
      )}
    </section>
  );
}
