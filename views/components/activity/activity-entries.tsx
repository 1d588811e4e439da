import { useEffect, useId, useState } from 'react';
import { messageOf } from '@shared/api-error.js';
import { SOURCE_LABELS, type ActivityPage } from '@shared/activity.js';
import { apiRequest } from '@views/data/http.js';
import { useFormat } from '@views/hooks/use-format.js';
import { Badge, Button } from '../ui/primitives.js';

/**
 * Activity entries a page at a time (docs/decisions/0106): a kind filter, the entries newest first, and "Show older"
 * following the answer's cursor. `url` is the endpoint with any filters but the kind; loaded after hydration.
 */
export function ActivityEntries({ url, kinds, label }: { url: string; kinds: Readonly<Record<string, string>>; label: string }) {
  const format = useFormat();
  const filterId = useId();
  const [kind, setKind] = useState('');
  const [pages, setPages] = useState<{ items: ActivityPage['items']; next: string | null } | null>(null);
  const [after, setAfter] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const query = (cursor: string | null) => {
    const params = new URLSearchParams();
    if (kind) params.set('kind', kind);
    if (cursor) params.set('after', cursor);
    const text = params.toString();
    return text ? `${url}${url.includes('?') ? '&' : '?'}${text}` : url;
  };

  useEffect(() => {
    let current = true;
    apiRequest<ActivityPage>('GET', query(after)).then(
      (page) => {
        if (!current) return;
        setError(null);
        setPages((previous) => ({ items: after && previous ? [...previous.items, ...page.items] : page.items, next: page.next }));
      },
      (failure: unknown) => current && setError(messageOf(failure, 'The activity could not be loaded')),
    );
    return () => {
      current = false;
    };
    // query() reads url, kind and after, the dependencies listed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url, kind, after]);

  return (
    <>
      <div className="activity-filter">
        <label htmlFor={filterId}>Show</label>
        <select
          id={filterId}
          className="input"
          value={kind}
          onChange={(event) => {
            setPages(null);
            setAfter(null);
            setKind(event.target.value);
          }}
        >
          <option value="">Everything</option>
          {Object.entries(kinds).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </div>
      {error && <p role="alert">{error}</p>}
      {!pages && !error && <p className="muted">Loading activity...</p>}
      {pages && pages.items.length === 0 && <p className="muted">No activity yet</p>}
      {pages && pages.items.length > 0 && (
        <ol className="history-list activity-list" aria-label={label}>
          {pages.items.map((item) => (
            <li key={item.id} className="history-entry" data-kind={item.kind}>
              <time className="muted" dateTime={item.at}>
                {format.dateTime(item.at)}
              </time>{' '}
              <Badge>{kinds[item.kind] ?? item.kind}</Badge>
              {item.source && item.source !== 'screen' && <span className="muted"> · {SOURCE_LABELS[item.source]}</span>}
              <p>{item.summary}</p>
            </li>
          ))}
        </ol>
      )}
      {pages?.next && (
        <div className="card-actions">
          <Button variant="outline" className="btn-sm" onClick={() => setAfter(pages.next)}>
            Show older
          </Button>
        </div>
      )}
    </>
  );
}
