import { useState } from 'react';
import { Link, useLoaderData, useNavigate, type LoaderFunctionArgs } from 'react-router';
import { messageOf } from '@shared/api-error.js';
import type { MergePreview, MergeResult } from '@shared/schemas/duplicates.js';
import { Alert, Button, Card } from '@views/components/ui/primitives.js';
import { toast } from '@views/components/ui/toast.js';
import { TableScroll } from '@views/components/ui/table-scroll.js';
import { apiRequest } from '@views/data/http.js';
import { dataSource, gated } from '@views/data/source.js';
import { useCanWrite } from '@views/hooks/use-session.js';

export const loader = gated(async ({ request, context }: LoaderFunctionArgs): Promise<MergePreview> => {
  const search = new URL(request.url).searchParams;
  return dataSource(context).mergePreview({ type: search.get('type') ?? '', a: search.get('a') ?? '', b: search.get('b') ?? '' });
});

const shown = (value: unknown) => {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length ? value.join(', ') : '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
};

/** Merge two duplicates (issue 34): both side by side, the kept value chosen per field; the merged one can be restored. */
export function Component() {
  const preview = useLoaderData() as MergePreview;
  const navigate = useNavigate();
  const canWrite = useCanWrite();
  const [choices, setChoices] = useState<Record<string, 'keep' | 'merge'>>(() =>
    Object.fromEntries(preview.fields.map((field) => [field.field, field.choice])),
  );
  const [pending, setPending] = useState(false);
  async function merge() {
    setPending(true);
    try {
      const result = await apiRequest<MergeResult>('POST', '/api/merge', {
        type: preview.type,
        keepId: preview.keep.id,
        mergeId: preview.merge.id,
        fields: choices,
      });
      toast({
        title: 'Merged',
        description: result.deletedItemId ? `${preview.merge.name} is in Recently deleted: restoring it undoes the merge.` : undefined,
      });
      await navigate(`/duplicates?type=${preview.type}`);
    } catch (error) {
      toast({ title: 'Could not merge', description: messageOf(error, 'Could not merge'), variant: 'destructive' });
      setPending(false);
    }
  }
  const swap = `/duplicates/merge?type=${preview.type}&a=${preview.merge.id}&b=${preview.keep.id}`;
  return (
    <div className="page">
      <div className="page-header">
        <h1>Merge duplicates</h1>
      </div>
      <p className="muted">
        Keep <strong>{preview.keep.name}</strong> and merge <strong>{preview.merge.name}</strong> into it: its contacts, payments, files and
        history move to the kept record. <Link to={swap}>Keep the other one instead</Link>
      </p>
      {preview.refusal && <Alert variant="destructive">{preview.refusal}</Alert>}
      <Card>
        <TableScroll>
          <table className="records-table" aria-label="Fields to keep">
            <thead>
              <tr>
                <th>Field</th>
                <th>Kept: {preview.keep.name}</th>
                <th>Merged: {preview.merge.name}</th>
              </tr>
            </thead>
            <tbody>
              {preview.fields.map((field) => (
                <tr key={field.field}>
                  <td>{field.field}</td>
                  {(['keep', 'merge'] as const).map((side) => (
                    <td key={side}>
                      <label>
                        <input
                          type="radio"
                          name={field.field}
                          value={side}
                          checked={choices[field.field] === side}
                          onChange={() => setChoices((current) => ({ ...current, [field.field]: side }))}
                        />{' '}
                        {shown(field[side])}
                      </label>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </Card>
      <div className="toolbar">
        <Link className="btn btn-outline" to={`/duplicates?type=${preview.type}`}>
          Cancel
        </Link>{' '}
        {canWrite && (
          <Button disabled={pending || preview.refusal !== null} onClick={() => void merge()}>
            Merge
          </Button>
        )}
      </div>
    </div>
  );
}
