import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { isFinished, type JobType, type JobView } from '@shared/schemas/jobs.js';
import { messageOf } from '@shared/api-error.js';
import { toast } from '@views/components/ui/toast.js';
import { apiRequest } from '@views/data/http.js';

/**
 * Asks the server to stop a job at its next batch boundary. A refusal (it finished meanwhile, a viewer) is told in a
 * toast naming what could not be cancelled ("the import", "the sync"…); the job's progress shows the rest.
 */
export async function cancelJob(id: number | null, what: string): Promise<void> {
  if (id === null) return;
  try {
    await apiRequest('POST', `/api/jobs/${id}/cancel`);
  } catch (error) {
    toast({ title: 'Could not cancel', description: messageOf(error, `Could not cancel ${what}`), variant: 'destructive' });
  }
}

/** How often a running job is read again: the progress bar moves about once a second. */
const POLL_MS = 1000;

/**
 * Follows a job while the page shows it: reads GET /api/jobs/{id} every second until it has finished, and tells
 * `onFinish` once when it sees it finish, if this page started it or saw it running (not for a job that had long
 * finished when the page reopened it). A failed read (the network, a restart) is tried again on the next beat.
 */
export function useJob(id: number | null, onFinish: (job: JobView) => void, startedHere = false): JobView | null {
  // Kept with the id it belongs to, so a new id shows nothing until its first read.
  const [seen, setSeen] = useState<{ id: number; job: JobView } | null>(null);
  const finishRef = useRef(onFinish);
  useEffect(() => {
    finishRef.current = onFinish;
  });
  useEffect(() => {
    if (id === null) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let sawRunning = startedHere;
    const read = async () => {
      try {
        const current = await apiRequest<JobView>('GET', `/api/jobs/${id}`);
        if (stopped) return;
        setSeen({ id, job: current });
        if (isFinished(current.state)) {
          if (sawRunning) finishRef.current(current);
          return;
        }
        sawRunning = true;
      } catch {
        // Tried again on the next beat.
      }
      if (!stopped) timer = setTimeout(() => void read(), POLL_MS);
    };
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [id, startedHere]);
  return seen !== null && seen.id === id ? seen.job : null;
}

/**
 * The queued and running jobs of a type, read when the page opens and again on `refresh()`: a job started before
 * a reload, in another tab, from the command line or by the schedule is found and can be followed with useJob.
 * Null until read; a failed read counts as none (the page still works, it only does not show the others' jobs).
 */
export function useActiveJobs(type: JobType): { jobs: JobView[] | null; refresh(): void } {
  const [jobs, setJobs] = useState<JobView[] | null>(null);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let stopped = false;
    const ofState = (state: 'queued' | 'running') =>
      apiRequest<{ items: JobView[] }>('GET', `/api/jobs?type=${type}&state=${state}`).then(
        (answer) => answer.items,
        () => [],
      );
    void Promise.all([ofState('running'), ofState('queued')]).then(([running, queued]) => {
      if (!stopped) setJobs([...running, ...queued]);
    });
    return () => {
      stopped = true;
    };
  }, [type, round]);
  return { jobs, refresh: () => setRound((n) => n + 1) };
}

/** Tells this tab's readers of remembered jobs that one changed (other tabs hear the storage event). */
const rememberedChanged = new EventTarget();

function subscribeRemembered(listener: () => void) {
  window.addEventListener('storage', listener);
  rememberedChanged.addEventListener('change', listener);
  return () => {
    window.removeEventListener('storage', listener);
    rememberedChanged.removeEventListener('change', listener);
  };
}

/** The job a screen started, remembered in this browser so a reload or a visit elsewhere and back finds it again. */
export function useRememberedJob(key: string): { id: number | null; startedHere: boolean; remember(id: number | null): void } {
  // The server renders no job (it cannot see the browser's storage); the browser reads it once hydrated.
  const stored = useSyncExternalStore(
    subscribeRemembered,
    () => window.localStorage.getItem(key),
    () => null,
  );
  const [startedHere, setStartedHere] = useState<number | null>(null);
  const id = Number(stored);
  const valid = Number.isInteger(id) && id > 0 ? id : null;
  const remember = (next: number | null) => {
    if (next === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, String(next));
    setStartedHere(next);
    rememberedChanged.dispatchEvent(new Event('change'));
  };
  return { id: valid, startedHere: valid !== null && startedHere === valid, remember };
}

/** 'under a second', '42 s', '3 min 5 s', '1 h 2 min'. */
export function duration(ms: number): string {
  if (ms < 1000) return 'under a second';
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${seconds % 60} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * How far a job has got: '40 / 100 rows' once its total is known; before that what it has read so far ('1,200
 * rows so far'), or 'Starting…' when it has read nothing yet (never a '?' for the total it does not know).
 */
export function progressText(done: number, total: number | null, unit: string): string {
  if (total !== null) return `${done.toLocaleString('en')} / ${total.toLocaleString('en')} ${unit}`;
  return done === 0 ? 'Starting…' : `${done.toLocaleString('en')} ${unit} so far`;
}

/** A running or queued job's bar: done / total, phase, time so far and the time left at the pace so far. */
export function JobProgressBar({ job, unit, onCancel }: { job: JobView; unit: string; onCancel?: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const { done, total, phase } = job.progress;
  const started = job.startedAt ? Date.parse(job.startedAt) : null;
  // A finished job's time is fixed; a running one's goes on.
  const elapsed = started === null ? 0 : (job.finishedAt ? Date.parse(job.finishedAt) : now) - started;
  const fraction = total ? Math.min(done / total, 1) : null;
  const remaining = fraction && fraction > 0 && fraction < 1 ? (elapsed / fraction) * (1 - fraction) : null;
  return (
    <div className="job-progress" data-testid="job-progress" role="status" aria-live="polite">
      <div className="job-progress-line">
        <strong>{job.state === 'queued' ? 'Waiting to start…' : job.state === 'cancelled' ? 'Cancelled' : (phase ?? 'Working…')}</strong>
        {job.cancelRequested && <span className="muted"> · stopping after the current batch</span>}
      </div>
      <progress
        className="job-progress-bar"
        max={total ?? undefined}
        value={total ? Math.min(done, total) : undefined}
        aria-label={total === null ? progressText(done, total, unit) : `${done} of ${total} ${unit}`}
      />
      <div className="muted job-progress-line" data-testid="job-progress-counts">
        {progressText(done, total, unit)}
        {started !== null && ` · ${duration(elapsed)} elapsed`}
        {remaining !== null && remaining >= 1000 && ` · about ${duration(remaining)} left`}
      </div>
      {onCancel && !job.cancelRequested && (
        <button type="button" className="btn btn-outline btn-sm" onClick={onCancel}>
          Cancel
        </button>
      )}
    </div>
  );
}
