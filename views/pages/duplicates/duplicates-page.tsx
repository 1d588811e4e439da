import { useState } from 'react';
import { data, Link, useLoaderData, useRevalidator, type LoaderFunctionArgs } from 'react-router';
import { messageOf, statusOf } from '@shared/api-error.js';
import { RECORD_TYPE_INFO, RECORD_TYPES } from '@shared/record-types.js';
import type { DuplicatePage, DuplicatePair } from '@shared/schemas/duplicates.js';
import { Alert, Button, Card, EmptyState } from '@views/components/ui/primitives.js';
import { toast } from '@views/components/ui/toast.js';
import { TableScroll } from '@views/components/ui/table-scroll.js';
import { apiRequest } from '@views/data/http.js';
import { dataSource, gated } from '@views/data/source.js';
import { useCanWrite } from '@views/hooks/use-session.js';

/** The types a person picks from: contacts, then the six lists (their URL segments are the API's type names). */
const TYPES = [
  { name: 'contacts', label: 'Contacts', path: (id: number) => `/contacts/${id}` },
  ...RECORD_TYPES.map((type) => ({
    name: RECORD_TYPE_INFO[type].segment as string,
    label: RECORD_TYPE_INFO[type].plural as string,
    path: (id: number) => `${RECORD_TYPE_INFO[type].path}/${id}`,
  })),
];

interface DuplicatesData extends DuplicatePage {
  type: string;
  cursor: string;
  problem?: string;
}

export const loader = gated(async ({ request, context }: LoaderFunctionArgs): Promise<DuplicatesData> => {
  const search = new URL(request.url).searchParams;
  const type = search.get('type') || 'contacts';
  const cursor = search.get('cursor') ?? '';
  try {
    return { ...(await dataSource(context).duplicates(cursor ? { type, cursor } : { type })), type, cursor };
  } catch (error) {
    if (statusOf(error) !== 400) throw error;
    const problem = messageOf(error, 'These duplicates cannot be listed');
    return data({ items: [], nextCursor: null, type, cursor, problem }, { status: 400 }) as unknown as DuplicatesData;
  }
});

function PairRow({ pair, type }: { pair: DuplicatePair; type: string }) {
  const revalidator = useRevalidator();
  const canWrite = useCanWrite();
  const [pending, setPending] = useState(false);
  const pathOf = TYPES.find((entry) => entry.name === type)?.path ?? (() => '#');
  const [a, b] = pair.records;
  async function dismiss() {
    setPending(true);
    try {
      await apiRequest('POST', '/api/duplicates/dismiss', { type, a: pair.a, b: pair.b });
      toast({ title: 'Marked as not a duplicate' });
      await revalidator.revalidate();
    } catch (error) {
      toast({ title: 'Could not dismiss', description: messageOf(error, 'Could not dismiss'), variant: 'destructive' });
      setPending(false);
    }
  }
  return (
    <tr>
      <td>
        <a href={pathOf(a.id)}>{a.name || `#${a.id}`}</a>
      </td>
      <td>
        <a href={pathOf(b.id)}>{b.name || `#${b.id}`}</a>
      </td>
      <td>{Math.round(pair.score * 100)}%</td>
      <td>{pair.reasons.join(', ')}</td>
      <td className="records-nowrap">
        {canWrite && (
          <>
            <Link className="btn btn-outline btn-sm" to={`/duplicates/merge?type=${type}&a=${pair.a}&b=${pair.b}`}>
              Merge
            </Link>{' '}
            <Button variant="outline" className="btn-sm" disabled={pending} onClick={() => void dismiss()}>
              Not a duplicate
            </Button>
          </>
        )}
      </td>
    </tr>
  );
}

/** Possible duplicates of one type (issue 34): pairs with their score and reasons, Merge and "Not a duplicate". */
export function Component() {
  const page = useLoaderData() as DuplicatesData;
  return (
    <div className="page">
      <div className="page-header">
        <h1>Possible duplicates</h1>
      </div>
      <nav aria-label="Type" className="toolbar">
        {TYPES.map((entry) => (
          <Link
            key={entry.name}
            to={`/duplicates?type=${entry.name}`}
            className={`btn btn-sm ${entry.name === page.type ? 'btn-primary' : 'btn-outline'}`}
            aria-current={entry.name === page.type ? 'page' : undefined}
          >
            {entry.label}
          </Link>
        ))}
      </nav>
      {page.problem && <Alert variant="destructive">{page.problem}</Alert>}
      {!page.problem && page.items.length === 0 ? (
        <EmptyState title="No possible duplicates" />
      ) : (
        <Card>
          <TableScroll stickyLast>
            <table className="records-table" aria-label="Possible duplicates">
              <thead>
                <tr>
                  <th>Record</th>
                  <th>Possible duplicate</th>
                  <th>Score</th>
                  <th>Why</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((pair) => (
                  <PairRow key={`${pair.a}:${pair.b}`} pair={pair} type={page.type} />
                ))}
              </tbody>
            </table>
          </TableScroll>
        </Card>
      )}
      <div className="toolbar">
        {page.cursor && <Link to={`/duplicates?type=${page.type}`}>First page</Link>}
        {page.nextCursor && <Link to={`/duplicates?type=${page.type}&cursor=${page.nextCursor}`}>Next page</Link>}
      </div>
    </div>
  );
}
