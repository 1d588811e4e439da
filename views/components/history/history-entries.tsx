import { useEffect, useState } from 'react';
import { messageOf } from '@shared/api-error.js';
import { describeEntry, HISTORY_PAGE_SIZE, type HistoryPage } from '@shared/history.js';
import type { RecordType } from '@shared/record-types.js';
import { historyLabelsOf } from '@shared/records/index.js';
import { apiRequest } from '@views/data/http.js';
import { useFormat } from '@views/hooks/use-format.js';
import { Button } from '../ui/primitives.js';

/** The History panel's entries, page by page: loaded by HistoryPanel after hydration. */
export function HistoryEntries({ apiPath, noun, ownerType }: { apiPath: string; noun: string; ownerType?: RecordType | undefined }) {
  const labels = ownerType ? historyLabelsOf(ownerType) : undefined;
  const format = useFormat();
  const [page, setPage] = useState(1);
  const [state, setState] = useState<{ data: HistoryPage | null; error: string | null }>({ data: null, error: null });

  useEffect(() => {
    let current = true;
    apiRequest<HistoryPage>('GET', `${apiPath}/history?page=${page}`).then(
      (data) => current && setState({ data, error: null }),
      (error: unknown) => current && setState({ data: null, error: messageOf(error, 'The history could not be loaded') }),
    );
    return () => {
      current = false;
    };
  }, [apiPath, page]);

  const { data, error } = state;
  const pages = data ? Math.max(1, Math.ceil(data.total / HISTORY_PAGE_SIZE)) : 1;
  return (
    <>
      {error && <p role="alert">{error}</p>}
      {!data && !error && <p className="muted">Loading history...</p>}
      {data && data.items.length === 0 && <p className="muted">No changes recorded yet</p>}
      {data && data.items.length > 0 && (
        <ol className="history-list">
          {data.items.map((entry) => (
            <li key={entry.id} className="history-entry">
              <time className="muted" dateTime={entry.at}>
                {format.dateTime(entry.at)}
              </time>
              {describeEntry(entry, noun, labels).map((line) => (
                <p key={line}>{line}</p>
              ))}
            </li>
          ))}
        </ol>
      )}
      {data && pages > 1 && (
        <div className="card-actions">
          <Button variant="outline" className="btn-sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Newer
          </Button>
          <span className="muted">
            Page {page} of {pages}
          </span>
          <Button variant="outline" className="btn-sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Older
          </Button>
        </div>
      )}
    </>
  );
}
