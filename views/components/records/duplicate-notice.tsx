import type { ReactNode } from 'react';
import { apiRequest } from '@views/data/http.js';

/**
 * The add form's duplicate notice (issue 34), loaded only when a field of a new record is left, so no page ships it
 * up front: when the field names the record, the records it may duplicate are fetched (GET /api/duplicates/check)
 * and named in a notice that never blocks the save.
 */

/** The fields that name a record (docs/decisions/0108): leaving one asks whether the name is already there. */
const NAME_FIELDS = ['eventName', 'businessName', 'clubName', 'brandName', 'mediaName', 'firstName', 'lastName'];

interface Match {
  id: number;
  name: string;
  reasons: string[];
}

let asked = '';

export function checkDuplicates(form: HTMLFormElement, field: string, segment: string, show: (notice: ReactNode) => void): void {
  if (!NAME_FIELDS.includes(field)) return;
  const params = new URLSearchParams({ type: segment });
  for (const name of NAME_FIELDS) {
    const input = form.elements.namedItem(name);
    if (input instanceof HTMLInputElement && input.value.trim()) params.set(name, input.value.trim());
  }
  const query = params.toString();
  if (query === asked) return;
  asked = query;
  apiRequest<{ matches: Match[] }>('GET', `/api/duplicates/check?${query}`).then(
    ({ matches }) => {
      if (asked === query) show(matches.length ? <Notice matches={matches} segment={segment} /> : null);
    },
    // A notice only: a failed check leaves the form as it is.
    () => undefined,
  );
}

function Notice({ matches, segment }: { matches: Match[]; segment: string }) {
  return (
    <div role="status" className="alert">
      <strong className="alert-title">Possible duplicate</strong>
      <div>
        Already here:{' '}
        {matches.map((match, index) => (
          <span key={match.id}>
            {index > 0 && ', '}
            <a href={`/${segment}/${match.id}`}>{match.name}</a> ({match.reasons.join(', ')})
          </span>
        ))}
        . You can still save this one.
      </div>
    </div>
  );
}
