import { useState } from 'react';
import { useLoaderData, useRevalidator } from 'react-router';
import { messageOf } from '@shared/api-error.js';
import { trashLabel, type DeletedItem } from '@shared/schemas/trash.js';
import { dataSource, gated } from '@views/data/source.js';
import { apiRequest } from '@views/data/http.js';
import { useFormat } from '@views/hooks/use-format.js';
import { Button, Card, EmptyState } from '@views/components/ui/primitives.js';
import { toast } from '@views/components/ui/toast.js';
import { TableScroll } from '@views/components/ui/table-scroll.js';

export const loader = gated(({ context }) => dataSource(context).deletedItems());

const holdsText = ({ contacts, payments, files }: DeletedItem['holds']) =>
  [
    `${contacts} contact${contacts === 1 ? '' : 's'}`,
    `${payments} payment${payments === 1 ? '' : 's'}`,
    `${files} file${files === 1 ? '' : 's'}`,
  ].join(', ');

function DeletedRow({ item }: { item: DeletedItem }) {
  const format = useFormat();
  const revalidator = useRevalidator();
  const [pending, setPending] = useState(false);
  async function restore() {
    setPending(true);
    try {
      await apiRequest('POST', `/api/deleted/${item.id}/restore`);
      toast({ title: `${trashLabel(item.type).singular} restored` });
      await revalidator.revalidate();
    } catch (error) {
      toast({ title: 'Could not restore', description: messageOf(error, 'Could not restore'), variant: 'destructive' });
      setPending(false);
    }
  }
  return (
    <tr>
      <td>{trashLabel(item.type).singular}</td>
      <td>{item.name}</td>
      <td>{item.deletedBy}</td>
      <td className="records-nowrap">{format.dateTime(item.deletedAt)}</td>
      <td>{holdsText(item.holds)}</td>
      <td>
        <Button variant="outline" className="btn-sm" disabled={pending} onClick={() => void restore()} aria-label={`Restore ${item.name}`}>
          Restore
        </Button>
      </td>
    </tr>
  );
}

/** Recently deleted (admins): records deleted in the last 30 days, with what they held, and Restore. */
export function Component() {
  const items = useLoaderData() as DeletedItem[];
  return (
    <div className="page settings-page">
      <div className="page-header">
        <h1>Recently deleted</h1>
      </div>
      <p className="muted">Deleted records, with their contacts, payments and files, can be restored for 30 days.</p>
      {items.length === 0 ? (
        <EmptyState title="Nothing deleted recently" />
      ) : (
        <Card>
          <TableScroll stickyLast>
            <table className="records-table" aria-label="Recently deleted">
              <thead>
                <tr>
                  <th>Type</th>
                  <th>Name</th>
                  <th>Deleted by</th>
                  <th>When</th>
                  <th>What it held</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {items.map((item) => (
                  <DeletedRow key={item.id} item={item} />
                ))}
              </tbody>
            </table>
          </TableScroll>
        </Card>
      )}
    </div>
  );
}
