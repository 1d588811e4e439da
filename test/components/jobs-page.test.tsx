import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { LoaderFunctionArgs } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '@shared/roles.js';
import type { JobView } from '@shared/schemas/jobs.js';
import * as page from '@views/pages/jobs/jobs-page.js';
import { fakeDataSource } from '../helpers/fake-data-source.js';
import { jobView } from './job-fixtures.js';
import { renderPage } from './records-render.js';

const finished = { state: 'succeeded' as const, finishedAt: '2026-11-20T10:01:05.000Z' };
const jobs: JobView[] = [
  jobView({ id: 5, type: 'import', params: { kind: 'brands' }, progress: { done: 40, total: 100, phase: 'Importing' } }),
  jobView({
    id: 4,
    type: 'sync',
    params: { kind: 'runclubs', full: true },
    trigger: 'cli',
    startedBy: null,
    ...finished,
    result: { success: true, message: '12 run clubs read', created: 2, updated: 3, errors: ['Club 9: bad state'], unpublished: [] },
  }),
  jobView({
    id: 3,
    type: 'newsletter',
    params: { audienceId: 'runners1', ownerType: 'brand', tag: 'VIP' },
    ...finished,
    result: { total: 3, added: 1, updated: 1, unsubscribed: 0, failed: 1, errors: ['x@example.org: Invalid Resource'], dryRun: false },
  }),
  jobView({
    id: 2,
    type: 'import',
    params: { kind: 'events', dryRun: true },
    ...finished,
    result: { updated: 4, created: 6, skipped: 1, errors: [] },
  }),
  jobView({
    id: 1,
    type: 'sync',
    state: 'failed',
    finishedAt: '2026-11-20T10:00:02.000Z',
    error: { status: 502, message: 'Could not reach WordPress at https://cms.example.org', code: 'upstream', body: {} },
  }),
];

type Stub = (url: string, init?: RequestInit) => { status?: number; body: unknown };
function stubFetch(answer: Stub) {
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    const { status = 200, body } = answer(url, init);
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

const renderJobs = (items: JobView[], role: Role = 'staff', loader?: () => unknown) =>
  renderPage({
    path: '/jobs',
    url: '/jobs',
    Component: page.Component,
    data: { items, filter: { type: '', state: '' } },
    loader: loader ?? (() => ({ items, filter: { type: '', state: '' } })),
    role,
  });

const item = (id: number) => screen.getByTestId(`job-${id}`);

describe('Jobs page', () => {
  it('lists each job with its type, who started it, its parameters, state, counts and duration', () => {
    stubFetch(() => ({ body: jobs[0] }));
    renderJobs(jobs);
    expect(screen.getByRole('heading', { level: 1, name: 'Jobs' })).toBeTruthy();
    const sync = item(4).textContent;
    expect(sync).toContain('Sync');
    expect(sync).toContain('Succeeded');
    expect(sync).toContain('Run Clubs · full');
    expect(sync).toContain('By the command line');
    expect(sync).toContain('took 1 min 5 s');
    expect(within(item(4)).getByTestId('job-counts').textContent).toBe('2 created, 3 updated, 1 errors');
    expect(item(3).textContent).toContain('audience runners1 · Brands · tag VIP');
    expect(within(item(3)).getByTestId('job-counts').textContent).toBe('1 added, 1 updated, 1 failed');
    expect(item(2).textContent).toContain('Events · dry run');
    expect(within(item(2)).getByTestId('job-counts').textContent).toBe('Updated 4 events, created 6 contacts');
    expect(within(item(1)).getByTestId('job-state').textContent).toBe('Failed');
    expect(within(item(1)).getByTestId('job-counts').textContent).toBe('Could not reach WordPress at https://cms.example.org');
    expect(item(1).textContent).toContain('By staff@example.org');
  });

  it("opens a finished job on the summary its page shows, and a failed one's error", () => {
    stubFetch(() => ({ body: jobs[0] }));
    renderJobs(jobs);
    fireEvent.click(within(item(4)).getByText('Sync'));
    expect(within(item(4)).getByTestId('sync-result').textContent).toContain('1 errors');
    expect(item(4).textContent).toContain('12 run clubs read');
    expect(within(item(3)).getByTestId('push-summary').textContent).toContain(
      'Pushed 3 contacts to audience runners1: 1 added, 1 updated, 0 unsubscribed (kept unsubscribed), 1 failed',
    );
    expect(within(item(3)).getByTestId('push-summary').textContent).toContain('x@example.org: Invalid Resource');
    expect(within(item(2)).getByTestId('import-result-updated').textContent).toContain('4');
    expect(within(item(1)).getByTestId('job-error').textContent).toBe('Could not reach WordPress at https://cms.example.org');
  });

  it('summarises a finished backup by its archive and size', () => {
    const backup = jobView({
      id: 9,
      type: 'backup',
      params: {},
      ...finished,
      result: { name: 'pacer-backup-20261128-021500.tar.gz', bytes: 2_516_582, files: 3, tables: { events: 10 } },
    });
    renderJobs([backup]);
    expect(within(item(9)).getByTestId('backup-summary').textContent).toBe('Backed up as pacer-backup-20261128-021500.tar.gz, 2,458 KB.');
  });

  it('updates a running job live, cancels it, and reads the list again when it has finished', async () => {
    let current = jobs[0]!;
    const loader = vi.fn(() => ({ items: [{ ...current }], filter: { type: '', state: '' } }));
    const fetch = stubFetch((url, init) => {
      if (init?.method === 'POST' && url === '/api/jobs/5/cancel') return { body: (current = { ...current, cancelRequested: true }) };
      return { body: current };
    });
    renderJobs([jobs[0]!], 'staff', loader);
    await waitFor(() => expect(within(item(5)).getByTestId('job-progress-counts').textContent).toContain('40 / 100 rows'));
    current = { ...current, progress: { done: 70, total: 100, phase: 'Importing' } };
    await waitFor(() => expect(within(item(5)).getByTestId('job-progress-counts').textContent).toContain('70 / 100 rows'));
    fireEvent.click(within(item(5)).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(fetch).toHaveBeenCalledWith('/api/jobs/5/cancel', expect.objectContaining({ method: 'POST' })));
    current = {
      ...current,
      state: 'cancelled',
      finishedAt: '2026-11-20T10:00:30.000Z',
      progress: { done: 80, total: 100, phase: 'Importing' },
    };
    await waitFor(() => expect(within(item(5)).getByTestId('job-state').textContent).toBe('Cancelled'));
    expect(loader).toHaveBeenCalled();
    expect(within(item(5)).getByTestId('job-counts').textContent).toBe('80 / 100 rows');
    expect(within(item(5)).queryByTestId('job-progress')).toBeNull();
  });

  it('shows a viewer running jobs without Cancel', async () => {
    stubFetch(() => ({ body: jobs[0] }));
    renderJobs([jobs[0]!], 'viewer');
    await waitFor(() => expect(within(item(5)).getByTestId('job-progress-counts').textContent).toContain('40 / 100 rows'));
    expect(within(item(5)).queryByRole('button', { name: 'Cancel' })).toBeNull();
  });

  it('says what a job has done in words that are true: no "?" total, no red zero, no "completed" when every row failed', async () => {
    const starting = jobView({ id: 20, type: 'import', params: { kind: 'events' }, progress: { done: 0, total: null, phase: null } });
    const reading = jobView({
      id: 21,
      type: 'import',
      params: { kind: 'brands' },
      progress: { done: 1200, total: null, phase: 'Reading' },
    });
    const quick = { state: 'succeeded' as const, startedAt: '2026-11-20T10:00:00.000Z', finishedAt: '2026-11-20T10:00:00.300Z' };
    const allFailed = jobView({
      id: 22,
      type: 'import',
      params: { kind: 'events' },
      ...quick,
      result: { updated: 0, created: 0, skipped: 0, errors: ['Line 2: Email is not valid', 'Line 3: Email is not valid'] },
    });
    const clean = jobView({
      id: 23,
      type: 'import',
      params: { kind: 'brands' },
      ...quick,
      result: { brandsCreated: 1500, contactsCreated: 2, skipped: 0, errors: [] },
    });
    const bigSync = jobView({
      id: 24,
      ...quick,
      result: { success: true, message: 'read', created: 12345, updated: 1000, errors: [], unpublished: [] },
    });
    stubFetch((url) => ({ body: url.endsWith('/21') ? reading : starting }));
    renderJobs([starting, reading, allFailed, clean, bigSync]);
    await waitFor(() => expect(within(item(20)).getByTestId('job-progress-counts').textContent).toMatch(/^Starting…/));
    await waitFor(() => expect(within(item(21)).getByTestId('job-progress-counts').textContent).toMatch(/^1,200 rows so far/));
    expect(item(20).textContent).not.toContain('?');

    expect(within(item(22)).getByTestId('job-state').textContent).toBe('No rows imported');
    expect(within(item(22)).getByTestId('job-counts').textContent).toBe('No rows imported: 2 errors');
    expect(item(22).textContent).not.toContain('Succeeded');
    expect(item(22).textContent).toContain('took under a second');
    expect(item(22).textContent).not.toContain('0 s');

    expect(within(item(23)).getByTestId('job-counts').textContent).toBe('Created 1,500 brands and 2 contacts');
    fireEvent.click(within(item(23)).getByText('Import'));
    const errorsTile = within(item(23)).getByTestId('import-result-errors');
    expect(errorsTile.className).toContain('imports-tile-zero');
    expect(within(item(23)).getByTestId('import-result-brandsCreated').textContent).toContain('1,500');
    fireEvent.click(within(item(22)).getByText('Import'));
    expect(within(item(22)).getByTestId('import-result-errors').className).not.toContain('imports-tile-zero');

    expect(within(item(24)).getByTestId('job-counts').textContent).toBe('12,345 created, 1,000 updated, 0 errors');
  });

  it('reads the list again while it is shown, so a job started after the page loaded appears', async () => {
    stubFetch(() => ({ body: jobs[0] }));
    let items: JobView[] = [];
    const loader = vi.fn(() => ({ items, filter: { type: '', state: '' } }));
    renderJobs([], 'staff', loader);
    expect(screen.getByText('No jobs found')).toBeTruthy();
    items = [jobs[1]!];
    await waitFor(() => expect(item(4).textContent).toContain('Succeeded'), { timeout: 15_000 });
  });

  it('says so when there are no jobs', () => {
    renderJobs([]);
    expect(screen.getByText('No jobs found')).toBeTruthy();
  });

  it('loads the type and state filters from the URL, and shows a refused filter on the page', async () => {
    const list = vi.fn((params: Record<string, string>) => Promise.resolve({ items: params.state === 'nope' ? [] : jobs }));
    const ds = fakeDataSource({
      jobs: (params) =>
        params.state === 'nope'
          ? Promise.reject(Object.assign(new Error('state must be one of: queued, running'), { status: 400 }))
          : list(params),
    });
    const args = (url: string) =>
      ({ request: new Request(url), params: {}, context: { dataSource: ds, signedIn: true } }) as unknown as LoaderFunctionArgs;
    const loaded = (await page.loader(args('http://x/jobs?type=sync&state=running'))) as { filter: unknown; items: JobView[] };
    expect(list).toHaveBeenCalledWith({ type: 'sync', state: 'running' });
    expect(loaded.filter).toEqual({ type: 'sync', state: 'running' });
    expect(loaded.items).toHaveLength(5);
    await page.loader(args('http://x/jobs'));
    expect(list).toHaveBeenLastCalledWith({});
    const refused = (await page.loader(args('http://x/jobs?state=nope'))) as unknown as {
      init: { status: number };
      data: { problem: string };
    };
    expect(refused.init.status).toBe(400);
    expect(refused.data.problem).toBe('state must be one of: queued, running');
  });
});
