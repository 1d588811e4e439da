import { useRef, useState, type FocusEvent, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { apiRequest } from '@views/data/http.js';

/** The fields that name a record (docs/decisions/0108): leaving one asks whether the name is already there. */
const NAME_FIELDS = ['eventName', 'businessName', 'clubName', 'brandName', 'mediaName', 'firstName', 'lastName'];

interface Match {
  id: number;
  name: string;
  reasons: string[];
}

/**
 * The add form's duplicate notice (issue 34): when a name field is left, the records it may duplicate are fetched
 * (GET /api/duplicates/check) and named in a notice that never blocks the save. `enabled` is false when editing.
 */
export function useDuplicateNotice(enabled: boolean): { onBlur: (event: FocusEvent<HTMLFormElement>) => void; notice: ReactNode } {
  const [matches, setMatches] = useState<Match[]>([]);
  const asked = useRef('');
  const segment = useLocation().pathname.split('/')[1] ?? '';
  const onBlur = (event: FocusEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    if (!enabled || !NAME_FIELDS.includes((event.target as unknown as { name?: string }).name ?? '')) return;
    const params = new URLSearchParams({ type: segment });
    for (const name of NAME_FIELDS) {
      const input = form.elements.namedItem(name);
      if (input instanceof HTMLInputElement && input.value.trim()) params.set(name, input.value.trim());
    }
    const query = params.toString();
    if (query === asked.current) return;
    asked.current = query;
    apiRequest<{ matches: Match[] }>('GET', `/api/duplicates/check?${query}`).then(
      (answer) => asked.current === query && setMatches(answer.matches),
      // A notice only: a failed check leaves the form as it is.
      () => undefined,
    );
  };
  const notice =
    matches.length > 0 ? (
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
    ) : null;
  return { onBlur, notice };
}
