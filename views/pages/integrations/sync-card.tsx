import { useState } from 'react';
import { useRevalidator } from 'react-router';
import { messageOf } from '@shared/api-error.js';
import { Button, Card, CardHeader } from '@views/components/ui/primitives.js';
import { toast } from '@views/components/ui/toast.js';
import { apiRequest } from '@views/data/http.js';
import { useFormat } from '@views/hooks/use-format.js';
import type { SyncKind, SyncResult, SyncRunView } from './types.js';

const MAX_LISTED_PROBLEMS = 20;

function ProblemList({ problems, label }: { problems: string[]; label: string }) {
  if (problems.length === 0) return null;
  return (
    <details className="sync-problems">
      <summary>
        {problems.length} {label}
      </summary>
      <ul>
        {problems.slice(0, MAX_LISTED_PROBLEMS).map((problem, index) => (
          <li key={index}>{problem}</li>
        ))}
        {problems.length > MAX_LISTED_PROBLEMS && <li className="muted">…and {problems.length - MAX_LISTED_PROBLEMS} more</li>}
      </ul>
    </details>
  );
}

function LastRun({ run }: { run: SyncRunView | null }) {
  const format = useFormat();
  if (!run) return <p className="muted sync-last">Never synced</p>;
  const who = run.startedBy ?? (run.trigger === 'cli' ? 'the command line' : 'someone');
  const outcome = run.status === 'succeeded' ? 'Succeeded' : run.status === 'failed' ? 'Failed' : 'Did not finish';
  return (
    <div className="sync-last" data-testid="sync-last-run">
      <p>
        <span className="muted">Last synced:</span> {format.dateTime(run.finishedAt ?? run.startedAt)} ·{' '}
        <span className={run.status === 'succeeded' ? 'sync-ok' : 'sync-bad'}>{outcome}</span>
      </p>
      <p className="muted">
        By {who} · {run.full ? 'full' : 'changes only'} · {run.created} created, {run.updated} updated, {run.errors.length} problems
        {run.durationMs !== null && ` · ${(run.durationMs / 1000).toFixed(1)} s`}
      </p>
      {run.status === 'failed' && run.message && <p className="sync-bad">{run.message}</p>}
    </div>
  );
}

/** One post type's sync: the button (only once the connection test passed), its syncing state and result. */
export function SyncCard({
  kind,
  title,
  connected,
  lastRun,
}: {
  kind: SyncKind;
  title: string;
  connected: boolean;
  lastRun: SyncRunView | null;
}) {
  const [syncing, setSyncing] = useState(false);
  const [result, setResult] = useState<SyncResult | null>(null);
  const revalidator = useRevalidator();

  async function sync() {
    setSyncing(true);
    try {
      const answer = await apiRequest<SyncResult>('POST', `/api/sync/${kind}`);
      setResult(answer);
      if (answer.success) toast({ title: 'Sync Successful', description: answer.message });
      else toast({ title: 'Sync Failed', description: answer.message || 'Sync failed', variant: 'destructive' });
    } catch (error) {
      toast({ title: 'Sync Failed', description: messageOf(error, 'Sync failed'), variant: 'destructive' });
    } finally {
      setSyncing(false);
      void revalidator.revalidate();
    }
  }

  return (
    <Card className="sync-card" data-testid={`sync-card-${kind}`}>
      <CardHeader
        level={3}
        title={title}
        actions={
          <Button onClick={sync} disabled={!connected || syncing} aria-label={`Sync ${title}`}>
            {syncing ? 'Syncing...' : 'Sync'}
          </Button>
        }
      />
      {!connected && <p className="muted">Test the connection first.</p>}
      {result && (
        <div className="sync-result" data-testid="sync-result">
          <div className="sync-tiles">
            <div>
              <span className="sync-number">{result.created}</span> created
            </div>
            <div>
              <span className="sync-number">{result.updated}</span> updated
            </div>
            <div>
              <span className="sync-number">{result.errors.length}</span> errors
            </div>
          </div>
          <ProblemList problems={result.errors} label="errors" />
          <ProblemList problems={result.unpublished} label="no longer published (kept)" />
        </div>
      )}
      <LastRun run={lastRun} />
    </Card>
  );
}
