import { useState } from 'react';
import { useRevalidator } from 'react-router';
import { messageOf, statusOf } from '@shared/api-error.js';
import { isFinished } from '@shared/schemas/jobs.js';
import { Button, Card, CardHeader } from '@views/components/ui/primitives.js';
import { toast } from '@views/components/ui/toast.js';
import { apiRequest } from '@views/data/http.js';
import { useFormat } from '@views/hooks/use-format.js';
import { useCanWrite } from '@views/hooks/use-session.js';
import { completedWithErrors } from '@shared/sync-outcome.js';
import { cancelJob, JobProgressBar, useJob } from '../jobs/job-progress.js';
import { SyncResultView } from './sync-result.js';
import type { SyncKind, SyncResult, SyncRunView } from './types.js';

/** How the last run ended, and its colour: a cancelled run was asked for, so it reads neutral rather than bad. */
const OUTCOMES: Record<SyncRunView['status'], { label: string; className: string }> = {
  succeeded: { label: 'Succeeded', className: 'sync-ok' },
  failed: { label: 'Failed', className: 'sync-bad' },
  cancelled: { label: 'Cancelled', className: 'sync-neutral' },
  unfinished: { label: 'Did not finish', className: 'sync-bad' },
};

const WITH_ERRORS = { label: 'Completed with errors', className: 'sync-bad' };

const plural = (count: number, noun: string) => `${count.toLocaleString('en')} ${noun}${count === 1 ? '' : 's'}`;

function LastRun({ run }: { run: SyncRunView | null }) {
  const format = useFormat();
  if (!run) return <p className="muted sync-last">Never synced</p>;
  const who = run.startedBy ?? (run.trigger === 'cli' ? 'the command line' : 'someone');
  const outcome = completedWithErrors(run) ? WITH_ERRORS : OUTCOMES[run.status];
  return (
    <div className="sync-last" data-testid="sync-last-run">
      <p>
        <span className="muted">Last synced:</span> {format.dateTime(run.finishedAt ?? run.startedAt)} ·{' '}
        <span className={outcome.className} data-testid="sync-last-outcome">
          {outcome.label}
        </span>
      </p>
      <p className="muted">
        By {who} · {run.full ? 'full' : 'changes only'} · {run.created} created, {run.updated} updated, {run.errors.length} problems
        {run.warnings.length > 0 && `, ${plural(run.warnings.length, 'warning')}`}
        {run.durationMs !== null && ` · ${(run.durationMs / 1000).toFixed(1)} s`}
      </p>
      {run.status === 'failed' && run.message && <p className="sync-bad">{run.message}</p>}
      {run.status === 'cancelled' && run.message && <p className="muted">{run.message}</p>}
    </div>
  );
}

/**
 * One post type's sync: the button (only once the connection test passed), its progress and result. The sync runs
 * as a job: the click answers at once with its id and the card follows it; a sync of this kind already queued or
 * running (`activeJobId`: started before a reload, in another tab, by the CLI or the schedule) is followed too.
 */
export function SyncCard({
  kind,
  title,
  connected,
  lastRun,
  activeJobId,
  onBusy,
}: {
  kind: SyncKind;
  title: string;
  connected: boolean;
  lastRun: SyncRunView | null;
  activeJobId: number | null;
  /** A sync of this kind turned out to be running already: look for it again. */
  onBusy: () => void;
}) {
  const [starting, setStarting] = useState(false);
  const [startedId, setStartedId] = useState<number | null>(null);
  const [result, setResult] = useState<SyncResult | null>(null);
  const revalidator = useRevalidator();
  const canWrite = useCanWrite();
  const followed = startedId ?? activeJobId;
  const job = useJob(
    followed,
    (finished) => {
      if (finished.state === 'succeeded') {
        const answer = finished.result as unknown as SyncResult;
        setResult(answer);
        if (answer.success) toast({ title: 'Sync Successful', description: answer.message });
        else toast({ title: 'Sync Failed', description: answer.message || 'Sync failed', variant: 'destructive' });
      } else if (finished.state === 'failed') {
        toast({ title: 'Sync Failed', description: finished.error?.message || 'Sync failed', variant: 'destructive' });
      } else {
        toast({
          title: 'Sync cancelled',
          description: `Stopped after ${finished.progress.done.toLocaleString('en')} items; the pages before were saved.`,
        });
      }
      void revalidator.revalidate();
    },
    followed !== null && followed === startedId,
  );
  const running = job !== null && !isFinished(job.state);
  const busy = starting || running || (followed !== null && job === null);

  async function sync() {
    setStarting(true);
    setResult(null);
    try {
      const started = await apiRequest<{ id: number }>('POST', '/api/jobs', { type: 'sync', params: { kind } });
      setStartedId(started.id);
    } catch (error) {
      toast({ title: 'Sync Failed', description: messageOf(error, 'Sync failed'), variant: 'destructive' });
      // Another tab, process or the schedule is running this sync: follow that one instead.
      if (statusOf(error) === 409) onBusy();
    } finally {
      setStarting(false);
    }
  }

  return (
    <Card className="sync-card" data-testid={`sync-card-${kind}`}>
      <CardHeader
        level={3}
        title={title}
        actions={
          <Button onClick={sync} disabled={!connected || busy} aria-label={`Sync ${title}`}>
            {busy ? 'Syncing...' : 'Sync'}
          </Button>
        }
      />
      {!connected && !running && <p className="muted">Test the connection first.</p>}
      {job && running && (
        <JobProgressBar job={job} unit="items" onCancel={canWrite ? () => void cancelJob(followed, 'the sync') : undefined} />
      )}
      {result && <SyncResultView result={result} />}
      <LastRun run={lastRun} />
    </Card>
  );
}
