import { useLoaderData, useRevalidator } from 'react-router';
import type { BackupItem, BackupListing } from '@shared/schemas/backups.js';
import { dataSource, gated } from '@views/data/source.js';
import { apiRequest } from '@views/data/http.js';
import { usePendingAction } from '@views/hooks/use-pending-action.js';
import { useFormat } from '@views/hooks/use-format.js';
import { Button, Card, EmptyState } from '@views/components/ui/primitives.js';
import { toast } from '@views/components/ui/toast.js';
import { TableScroll } from '@views/components/ui/table-scroll.js';

export const loader = gated(({ context }) => dataSource(context).backups());

const sizeText = (bytes: number) =>
  bytes >= 1 << 30
    ? `${(bytes / (1 << 30)).toFixed(1)} GB`
    : bytes >= 1 << 20
      ? `${(bytes / (1 << 20)).toFixed(1)} MB`
      : `${Math.max(1, Math.round(bytes / 1024))} KB`;

function BackupRow({ item }: { item: BackupItem }) {
  const format = useFormat();
  return (
    <tr>
      <td>{item.name}</td>
      <td className="records-nowrap">{format.dateTime(item.createdAt)}</td>
      <td className="records-nowrap">{sizeText(item.bytes)}</td>
      <td>
        <a className="btn btn-outline btn-sm" href={`/api/backups/${encodeURIComponent(item.name)}/download`} download>
          Download
        </a>
      </td>
    </tr>
  );
}

/** Backups (admins): the last backup and its size, the archives kept, a download of each, and "Back up now". */
export function Component() {
  const listing = useLoaderData() as BackupListing;
  const format = useFormat();
  const revalidator = useRevalidator();
  const { pending, run } = usePendingAction();
  const last = listing.items[0];
  const backUpNow = () =>
    run('Could not start the backup', async () => {
      await apiRequest('POST', '/api/backups');
      toast({ title: 'Backup started', description: 'It appears here when finished; the Jobs page shows its progress.' });
      await revalidator.revalidate();
    });
  return (
    <div className="page settings-page">
      <div className="page-header">
        <h1>Backups</h1>
        <Button disabled={pending} onClick={() => void backUpNow()}>
          Back up now
        </Button>
      </div>
      <p className="muted">
        {last ? `Last backup ${format.dateTime(last.createdAt)}, ${sizeText(last.bytes)}. ` : ''}
        {listing.schedule ? `Scheduled (${listing.schedule}); ` : 'No schedule set (BACKUP_SCHEDULE); '}
        the newest {listing.keep} are kept. Restore one with <code>pacer db restore</code> (docs/upgrading.md).
      </p>
      {listing.items.length === 0 ? (
        <EmptyState title="No backups yet" />
      ) : (
        <Card>
          <TableScroll stickyLast>
            <table className="records-table" aria-label="Backups">
              <thead>
                <tr>
                  <th>Archive</th>
                  <th>Made</th>
                  <th>Size</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {listing.items.map((item) => (
                  <BackupRow key={item.name} item={item} />
                ))}
              </tbody>
            </table>
          </TableScroll>
        </Card>
      )}
    </div>
  );
}
