import { useEffect } from 'react';
import { data, Form, useLoaderData, useRevalidator, type LoaderFunctionArgs } from 'react-router';
import { messageOf, statusOf } from '@shared/api-error.js';
import type { BrandsImportResult, EventsImportResult } from '@shared/imports/results.js';
import { JOB_STATE_LABELS, JOB_TYPE_LABELS, labelOf } from '@shared/labels.js';
import { RECORD_TYPE_INFO, syncedTypeOf, isSyncKind, type ContactOwnerType } from '@shared/record-types.js';
import { isFinished, JOB_STATES, JOB_TYPES, type JobState, type JobView } from '@shared/schemas/jobs.js';
import type { SyncResult } from '@shared/schemas/integrations.js';
import type { PushResult } from '@shared/schemas/newsletter.js';
import { ButtonLink } from '@views/components/ui/button-link.js';
import { Alert, Badge, Button, EmptyState } from '@views/components/ui/primitives.js';
import { dataSource, gated } from '@views/data/source.js';
import { useFormat } from '@views/hooks/use-format.js';
import { useCanWrite } from '@views/hooks/use-session.js';
import { describeImport, ImportResults, importedNothing, nothingImportedText } from '../imports/import-results.js';
import { PushSummary } from '../integrations/push-summary.js';
import { SyncResultView } from '../integrations/sync-result.js';
import { cancelJob, duration, JobProgressBar, progressText, useJob } from './job-progress.js';

interface JobsData {
  items: JobView[];
  filter: { type: string; state: string };
  problem?: string;
}

/** The page's URL filters are the API's: `type` and `state` (the service checks them and names the allowed ones). */
export const loader = gated(async ({ request, context }: LoaderFunctionArgs): Promise<JobsData> => {
  const search = new URL(request.url).searchParams;
  const filter = { type: search.get('type') ?? '', state: search.get('state') ?? '' };
  const params = Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== ''));
  try {
    return { ...(await dataSource(context).jobs(params)), filter };
  } catch (error) {
    if (statusOf(error) !== 400) throw error;
    return data({ items: [], filter, problem: messageOf(error, 'These filters cannot be used') }, { status: 400 }) as unknown as JobsData;
  }
});

type ImportKind = 'events' | 'brands';
const importKindOf = (job: JobView): ImportKind => (job.params.kind === 'brands' ? 'brands' : 'events');
const importResultOf = (job: JobView) => job.result as unknown as EventsImportResult | BrandsImportResult;
/** An import that finished with every row refused: it reads as failed, not as completed. */
const importFailedEveryRow = (job: JobView) =>
  job.type === 'import' && job.state === 'succeeded' && job.result !== null && importedNothing(importKindOf(job), importResultOf(job));

/** What the job was asked to do, in a line: 'Brands', 'Events · full', 'Audience runners1 · Brands · tag VIP · dry run'. */
function paramsSummary(job: JobView): string {
  const { params } = job;
  const parts: string[] = [];
  if (job.type === 'import') parts.push(RECORD_TYPE_INFO[importKindOf(job) === 'brands' ? 'brand' : 'event'].plural);
  if (job.type === 'sync') {
    const kind = String(params.kind);
    parts.push(isSyncKind(kind) ? RECORD_TYPE_INFO[syncedTypeOf(kind)].plural : kind);
    parts.push(params.full ? 'full' : 'changes only');
  }
  if (job.type === 'newsletter') {
    parts.push(`audience ${String(params.audienceId)}`);
    if (typeof params.ownerType === 'string')
      parts.push(RECORD_TYPE_INFO[params.ownerType as ContactOwnerType]?.plural ?? params.ownerType);
    if (typeof params.tag === 'string') parts.push(`tag ${params.tag}`);
  }
  if (params.dryRun) parts.push('dry run');
  return parts.join(' · ');
}

/** The finished job's counts in a line. */
function countsSummary(job: JobView): string {
  const result = job.result;
  if (!result) return '';
  if (importFailedEveryRow(job)) return nothingImportedText(importResultOf(job));
  if (job.type === 'import') return describeImport(importKindOf(job), importResultOf(job));
  const n = (value: number) => value.toLocaleString('en');
  if (job.type === 'backup')
    return `${String(result.name)}, ${Math.max(1, Math.round(Number(result.bytes) / 1024)).toLocaleString('en')} KB`;
  if (job.type === 'sync') {
    const sync = result as unknown as SyncResult;
    return `${n(sync.created)} created, ${n(sync.updated)} updated, ${n(sync.errors.length)} errors`;
  }
  const push = result as unknown as PushResult;
  return push.dryRun ? `${n(push.total)} would be pushed` : `${n(push.added)} added, ${n(push.updated)} updated, ${n(push.failed)} failed`;
}

const STATE_TONES: Record<JobState, 'default' | 'success' | 'warning' | 'muted' | 'info' | 'danger'> = {
  queued: 'muted',
  running: 'info',
  succeeded: 'success',
  failed: 'danger',
  cancelled: 'warning',
};

const UNITS = { import: 'rows', sync: 'items', newsletter: 'contacts', backup: 'parts', 'general-import': 'rows' } as const;

function startedBy(job: JobView): string {
  if (job.startedBy) return job.startedBy;
  if (job.trigger === 'cli') return 'the command line';
  if (job.trigger === 'schedule') return 'the schedule';
  return 'someone';
}

/** The finished job's result, as the page that started it shows it, and its error. */
function JobOutcome({ job }: { job: JobView }) {
  if (job.state === 'failed')
    return (
      <Alert variant="destructive" title="Failed">
        <span data-testid="job-error">{job.error?.message ?? 'The job failed'}</span>
      </Alert>
    );
  if (job.state === 'cancelled')
    return (
      <p className="muted">
        Cancelled after {job.progress.done.toLocaleString('en')} {UNITS[job.type]}; the work before was kept.
      </p>
    );
  if (job.state !== 'succeeded' || !job.result) return null;
  if (job.type === 'import') {
    const kind = importKindOf(job);
    const result = importResultOf(job);
    return (
      <>
        <p>{importFailedEveryRow(job) ? nothingImportedText(result) : describeImport(kind, result)}</p>
        <ImportResults kind={kind} result={result} />
      </>
    );
  }
  if (job.type === 'sync') {
    const result = job.result as unknown as SyncResult;
    return (
      <>
        <p>{result.message}</p>
        <SyncResultView result={result} />
      </>
    );
  }
  if (job.type === 'backup') return <p data-testid="backup-summary">Backed up as {countsSummary(job)}.</p>;
  return <PushSummary job={job} />;
}

function JobItem({ listed }: { listed: JobView }) {
  const format = useFormat();
  const canWrite = useCanWrite();
  const revalidator = useRevalidator();
  const active = !isFinished(listed.state);
  // A running job is read every second until it has finished; then the list is read again.
  const live = useJob(active ? listed.id : null, () => void revalidator.revalidate(), active);
  const job = live ?? listed;
  const running = !isFinished(job.state);

  const finishedIn = job.startedAt && job.finishedAt ? duration(Date.parse(job.finishedAt) - Date.parse(job.startedAt)) : null;
  return (
    <li className="job-item" data-testid={`job-${job.id}`}>
      <details>
        <summary className="job-summary">
          <span className="job-head">
            <span className="job-title">
              <strong>{JOB_TYPE_LABELS[job.type]}</strong> <span className="muted">#{job.id}</span>
            </span>
            {importFailedEveryRow(job) ? (
              <Badge tone="danger" data-testid="job-state">
                No rows imported
              </Badge>
            ) : (
              <Badge tone={STATE_TONES[job.state]} data-testid="job-state">
                {labelOf(JOB_STATE_LABELS, job.state)}
              </Badge>
            )}
            <span className="job-params">{paramsSummary(job)}</span>
          </span>
          <span className="job-foot">
            {!running && (
              <span className="job-counts" data-testid="job-counts">
                {job.state === 'succeeded'
                  ? countsSummary(job)
                  : job.state === 'failed'
                    ? (job.error?.message ?? 'Failed')
                    : progressText(job.progress.done, job.progress.total, UNITS[job.type])}
              </span>
            )}
            <span className="muted job-meta">
              By {startedBy(job)} · started {format.dateTime(job.startedAt ?? job.createdAt)}
              {job.finishedAt && ` · finished ${format.dateTime(job.finishedAt)}`}
              {finishedIn && ` · took ${finishedIn}`}
            </span>
          </span>
        </summary>
        <div className="job-detail">
          {running ? <p className="muted">Still running: its result shows here when it has finished.</p> : <JobOutcome job={job} />}
        </div>
      </details>
      {running && (
        <JobProgressBar job={job} unit={UNITS[job.type]} onCancel={canWrite ? () => void cancelJob(job.id, 'the job') : undefined} />
      )}
    </li>
  );
}

/** Recent and running imports, syncs and newsletter pushes: who started them, with what, and how they went. */
/** One of the page's URL filters (`?type=`, `?state=`): every choice with its label, after "All …". */
function FilterSelect<T extends string>(props: {
  name: string;
  label: string;
  allLabel: string;
  value: string;
  choices: readonly T[];
  labels: Record<T, string>;
}) {
  const { name, label, allLabel, value, choices, labels } = props;
  return (
    <>
      <label htmlFor={`jobs-${name}`} className="visually-hidden">
        {label}
      </label>
      <select id={`jobs-${name}`} name={name} className="input records-filter" defaultValue={value}>
        <option value="">{allLabel}</option>
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {labels[choice]}
          </option>
        ))}
      </select>
    </>
  );
}

/** How often the list is read again while the page is visible, so jobs started elsewhere after it loaded appear. */
const LIST_POLL_MS = 3000;

/** Reads the page's list again every few seconds while the tab is visible, and at once when it becomes visible. */
function useListPolling() {
  const revalidator = useRevalidator();
  const { revalidate } = revalidator;
  const idle = revalidator.state === 'idle';
  useEffect(() => {
    if (!idle) return;
    const refresh = () => {
      if (document.visibilityState === 'visible') void revalidate();
    };
    const timer = setTimeout(refresh, LIST_POLL_MS);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, [idle, revalidate]);
}

export function Component() {
  const { items, filter, problem } = useLoaderData() as JobsData;
  const canWrite = useCanWrite();
  useListPolling();
  return (
    <div className="page jobs-page">
      <div className="page-header">
        <h1>Jobs</h1>
        {/* The general import of any list (issue 34), beside the spec's import screens. */}
        {canWrite && (
          <ButtonLink to="/imports/new" variant="outline">
            Import a list
          </ButtonLink>
        )}
      </div>
      <p className="muted">Imports, syncs and newsletter pushes, newest first. Running jobs update as they go.</p>
      <Form method="get" action="/jobs" className="toolbar jobs-filters" key={`${filter.type}-${filter.state}`}>
        <FilterSelect name="type" label="Type" allLabel="All types" value={filter.type} choices={JOB_TYPES} labels={JOB_TYPE_LABELS} />
        <FilterSelect
          name="state"
          label="State"
          allLabel="All states"
          value={filter.state}
          choices={JOB_STATES}
          labels={JOB_STATE_LABELS}
        />
        <Button type="submit" variant="outline">
          Filter
        </Button>
      </Form>
      {problem && <Alert variant="destructive">{problem}</Alert>}
      {items.length === 0 && !problem ? (
        <EmptyState title="No jobs found">Imports, syncs and newsletter pushes appear here once started.</EmptyState>
      ) : (
        <ul className="job-list" data-testid="job-list">
          {items.map((job) => (
            <JobItem key={job.id} listed={job} />
          ))}
        </ul>
      )}
    </div>
  );
}
