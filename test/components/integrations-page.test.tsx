import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as page from '@views/pages/integrations/integrations-page.js';
import { parseTags } from '@views/pages/integrations/mailchimp-tab.js';
import { findToast, renderPage } from './records-render.js';
import type { Role } from '@shared/roles.js';
import type { IntegrationsOverview } from '@shared/schemas/integrations.js';
import { jobView } from './job-fixtures.js';

const overview: IntegrationsOverview = {
  wordpress: { configured: true, url: 'https://cms.example.org', credentials: true },
  mailchimp: { configured: true },
  latestRuns: {
    events: null,
    professionals: {
      id: 3,
      kind: 'professionals',
      trigger: 'cli',
      startedBy: null,
      startedAt: '2026-11-20T01:00:00.000Z',
      finishedAt: '2026-11-20T01:00:02.000Z',
      status: 'failed',
      full: true,
      created: 0,
      updated: 0,
      failed: 0,
      durationMs: 2000,
      message: 'Sync failed: Could not reach WordPress at https://cms.example.org: connection refused',
      errors: [],
      warnings: [],
      notices: [],
    },
    runclubs: {
      id: 4,
      kind: 'runclubs',
      trigger: 'web',
      startedBy: 'staff@example.org',
      startedAt: '2026-11-20T02:00:00.000Z',
      finishedAt: '2026-11-20T02:00:01.500Z',
      status: 'succeeded',
      full: false,
      created: 2,
      updated: 5,
      failed: 0,
      durationMs: 1500,
      message: 'ok',
      errors: ['x'],
      warnings: [],
      notices: [],
    },
  },
};

type Answer = { status?: number; body: unknown };
type Route = Answer | ((body: unknown) => Answer | Promise<Answer>);
let stubbed: Record<string, Route> = {};
function stubFetch(routes: Record<string, Route>) {
  stubbed = routes;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      const route = stubbed[`${method} ${url}`] ?? stubbed[`${method} ${url.split('?')[0]}`];
      const answer = typeof route === 'function' ? await route(body) : (route ?? { status: 404, body: { message: 'no route' } });
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      return new Response(text, { status: answer.status ?? 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
}

// Nothing reaches a network: a route a test does not give answers 404.
beforeEach(() => stubFetch({}));
afterEach(() => vi.unstubAllGlobals());

const renderIntegrations = (url = '/integrations', role: Role = 'staff', data: IntegrationsOverview = overview) =>
  renderPage({ path: '/integrations', url, Component: page.Component, data, loader: () => data, role });

const notConfigured: IntegrationsOverview = {
  ...overview,
  wordpress: { configured: false, url: null, credentials: false },
  mailchimp: { configured: false },
};
const notConfiguredAlerts = () =>
  screen
    .queryAllByRole('alert', { hidden: true })
    .filter((alert) => alert.textContent?.startsWith('Not configured'))
    .map((alert) => alert.textContent?.replace(/^Not configured/, ''));

describe('Not configured, by role', () => {
  it('tells an admin which server settings connect the website and Mailchimp', () => {
    renderIntegrations('/integrations', 'admin', notConfigured);
    expect(notConfiguredAlerts()).toEqual([
      'Set WORDPRESS_URL, WORDPRESS_USER and WORDPRESS_APP_PASSWORD on the server to connect the website.',
      'Set MAILCHIMP_API_KEY on the server to connect Mailchimp.',
    ]);
  });

  it('asks staff and viewers to get an admin to connect them, naming no settings', () => {
    for (const role of ['staff', 'viewer'] as const) {
      const { unmount } = renderIntegrations('/integrations', role, notConfigured);
      expect(notConfiguredAlerts()).toEqual(['Ask an admin to connect the website.', 'Ask an admin to connect Mailchimp.']);
      expect(document.body.textContent).not.toMatch(/WORDPRESS_|MAILCHIMP_/);
      unmount();
    }
  });

  it('shows no such alert once both are configured', () => {
    renderIntegrations('/integrations', 'admin');
    expect(notConfiguredAlerts()).toEqual([]);
  });
});

describe('Integrations page', () => {
  it('shows the overview, Not tested, disabled Sync buttons and how each sync last went', () => {
    renderIntegrations();
    expect(screen.getByTestId('integrations-overview').textContent).toContain('https://cms.example.org');
    expect(screen.getByTestId('wordpress-status').textContent).toBe('Not tested');
    for (const name of ['Sync Events', 'Sync Professionals', 'Sync Run Clubs'])
      expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('sync-card-events').textContent).toContain('Never synced');
    const pros = within(screen.getByTestId('sync-card-professionals')).getByTestId('sync-last-run').textContent;
    expect(pros).toContain('Failed');
    expect(pros).toContain('By the command line');
    expect(pros).toContain('Could not reach WordPress');
    // A run that finished with an item problem did not simply succeed.
    const clubs = within(screen.getByTestId('sync-card-runclubs')).getByTestId('sync-last-run').textContent;
    expect(clubs).toContain('Completed with errors');
    expect(clubs).not.toContain('Succeeded');
    expect(clubs).toContain('By staff@example.org · changes only · 2 created, 5 updated, 1 problems · 1.5 s');
  });

  it("shows a run with warnings only (types saved as other) as 'Succeeded', with its warnings counted", () => {
    const withWarnings: IntegrationsOverview['latestRuns']['events'] = {
      ...overview.latestRuns.runclubs!,
      id: 6,
      kind: 'events',
      errors: [],
      warnings: ["Run club 'X' (WordPress id 1): club type 'Parkrun' is not one of …; saved as other (Parkrun)", 'w2'],
    };
    renderIntegrations('/integrations', 'staff', { ...overview, latestRuns: { ...overview.latestRuns, events: withWarnings } });
    const events = within(screen.getByTestId('sync-card-events')).getByTestId('sync-last-run');
    expect(within(events).getByTestId('sync-last-outcome').textContent).toBe('Succeeded');
    expect(events.textContent).toContain('2 created, 5 updated, 0 problems, 2 warnings · 1.5 s');
  });

  it("shows a cancelled run as 'Cancelled' in neutral, with what it wrote before it stopped, and a failure still as 'Failed'", async () => {
    const cancelled: IntegrationsOverview['latestRuns']['events'] = {
      ...overview.latestRuns.runclubs!,
      id: 5,
      kind: 'events',
      status: 'cancelled',
      created: 100,
      updated: 3,
      errors: [],
      message: 'Sync cancelled: 100 created, 3 updated before it stopped',
    };
    renderIntegrations('/integrations', 'staff', { ...overview, latestRuns: { ...overview.latestRuns, events: cancelled } });
    const events = within(screen.getByTestId('sync-card-events')).getByTestId('sync-last-run');
    const outcome = within(events).getByTestId('sync-last-outcome');
    expect(outcome.textContent).toBe('Cancelled');
    expect(outcome.className).toBe('sync-neutral');
    expect(events.textContent).toContain('Sync cancelled: 100 created, 3 updated before it stopped');
    expect(events.querySelector('.sync-bad')).toBeNull();
    const pros = within(within(screen.getByTestId('sync-card-professionals')).getByTestId('sync-last-run')).getByTestId(
      'sync-last-outcome',
    );
    expect(pros.textContent).toBe('Failed');
    expect(pros.className).toBe('sync-bad');
  });

  it('reports a failed connection test with the server message, or the fallback', async () => {
    stubFetch({ 'GET /api/wordpress/test': { body: { success: false, message: 'WordPress rejected the username' } } });
    renderIntegrations();
    fireEvent.click(screen.getByRole('button', { name: 'Test Connection', hidden: false }));
    expect((await findToast('Connection Failed')).textContent).toContain('WordPress rejected the username');
    expect(screen.getByTestId('wordpress-status').textContent).toBe('Failed');
    expect((screen.getByRole('button', { name: 'Sync Events' }) as HTMLButtonElement).disabled).toBe(true);

    stubFetch({ 'GET /api/wordpress/test': { status: 502, body: '<html>Bad gateway</html>' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test Connection' }));
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toContain('Connection test failed'));
  });

  it('starts the sync as a job, shows its progress and Cancel, then the result and the toasts', async () => {
    let current = jobView({ progress: { done: 40, total: 150, phase: 'Reading posts' } });
    const succeeded = jobView({
      state: 'succeeded',
      progress: { done: 150, total: 150, phase: 'Finished' },
      finishedAt: '2026-11-20T10:00:05.000Z',
      result: {
        success: true,
        message: '3 events read',
        created: 2,
        updated: 1,
        errors: ['Event bad'],
        warnings: ["Event 'X': type 'Osteopath' saved as other (Osteopath)", 'w2'],
        unpublished: ['Event gone'],
        kind: 'events',
      },
    });
    const started: unknown[] = [];
    stubFetch({
      'GET /api/wordpress/test': { body: { success: true, message: 'Connected to Pacer as Edith' } },
      'GET /api/wordpress/site-info': { body: { name: 'Pacer & Friends', url: 'https://cms.example.org', description: 'Runners’ news' } },
      'GET /api/integrations/overview': { body: overview },
      'GET /api/jobs': { body: { items: [] } },
      'POST /api/jobs': (body) => {
        started.push(body);
        return (body as { params: { kind: string } }).params.kind === 'events'
          ? { status: 202, body: { id: 7 } }
          : { status: 409, body: { success: false, message: 'A sync of professionals is already running', code: 'sync_running' } };
      },
      'GET /api/jobs/7': () => ({ body: current }),
      'POST /api/jobs/7/cancel': () => ({ body: (current = { ...current, cancelRequested: true }) }),
    });
    renderIntegrations();
    fireEvent.click(screen.getByRole('button', { name: 'Test Connection' }));
    expect((await findToast('Connection Successful')).textContent).toContain('Connected to Pacer as Edith');
    await waitFor(() => expect(screen.getByTestId('site-info').textContent).toContain('Pacer & Friends'));
    expect(screen.getByTestId('overview-wordpress-status').textContent).toBe('Connected');

    fireEvent.click(screen.getByRole('button', { name: 'Sync Events' }));
    const card = screen.getByTestId('sync-card-events');
    await waitFor(() => expect(within(card).getByTestId('job-progress-counts').textContent).toContain('40 / 150 items'));
    expect(started).toEqual([{ type: 'sync', params: { kind: 'events' } }]);
    expect(screen.getByRole('button', { name: 'Sync Events' }).textContent).toBe('Syncing...');
    expect((screen.getByRole('button', { name: 'Sync Events' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(card).getByTestId('job-progress').textContent).toContain('Reading posts');
    fireEvent.click(within(card).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(within(card).getByTestId('job-progress').textContent).toContain('stopping after the current batch'));

    current = succeeded;
    expect((await findToast('Sync Successful')).textContent).toContain('3 events read');
    const result = within(card).getByTestId('sync-result').textContent;
    expect(result).toContain('2 created');
    expect(result).toContain('1 updated');
    expect(result).toContain('1 errors');
    expect(result).toContain('2 warnings');
    expect(result).toContain('2 warnings (saved as other)');
    expect(result).toContain('1 no longer published (kept)');
    expect(within(card).queryByTestId('job-progress')).toBeNull();
    expect(screen.getByRole('button', { name: 'Sync Events' }).textContent).toBe('Sync');

    // A sync of this kind already running elsewhere: the spec's 'Sync Failed' with the server's answer.
    fireEvent.click(screen.getByRole('button', { name: 'Sync Professionals' }));
    expect((await findToast('Sync Failed')).textContent).toContain('A sync of professionals is already running');
  });

  it('finds a sync still running after a reload, follows it to its end, and shows a failure with the spec toast', async () => {
    const running = jobView({ id: 12, params: { kind: 'runclubs' }, progress: { done: 5, total: 20, phase: 'Reading posts' } });
    let finished = false;
    stubFetch({
      'GET /api/jobs?type=sync&state=running': { body: { items: [running] } },
      'GET /api/jobs?type=sync&state=queued': { body: { items: [] } },
      'GET /api/jobs/12': () => ({
        body: finished
          ? { ...running, state: 'failed', error: { status: 502, message: 'Could not reach WordPress', code: 'upstream', body: {} } }
          : running,
      }),
      'GET /api/integrations/overview': { body: overview },
    });
    renderIntegrations();
    const card = screen.getByTestId('sync-card-runclubs');
    await waitFor(() => expect(within(card).getByTestId('job-progress-counts').textContent).toContain('5 / 20 items'));
    expect(screen.getByRole('button', { name: 'Sync Run Clubs' }).textContent).toBe('Syncing...');
    // The other kinds are not running.
    expect(within(screen.getByTestId('sync-card-events')).queryByTestId('job-progress')).toBeNull();
    finished = true;
    await waitFor(() => expect(screen.getByTestId('toast').textContent).toBe('Sync FailedCould not reach WordPress×'));
    await waitFor(() => expect(within(card).queryByTestId('job-progress')).toBeNull());
  });

  it('shows a viewer the progress of a running sync without Cancel', async () => {
    const running = jobView({ id: 12, progress: { done: 5, total: 20, phase: 'Reading posts' } });
    stubFetch({
      'GET /api/jobs?type=sync&state=running': { body: { items: [running] } },
      'GET /api/jobs?type=sync&state=queued': { body: { items: [] } },
      'GET /api/jobs/12': { body: running },
    });
    renderIntegrations('/integrations', 'viewer');
    const card = screen.getByTestId('sync-card-events');
    await waitFor(() => expect(within(card).getByTestId('job-progress-counts').textContent).toContain('5 / 20 items'));
    expect(within(card).queryByRole('button', { name: 'Cancel' })).toBeNull();
  });

  it('checks the add-member form, splits tags, and reports audience and member failures', async () => {
    expect(parseTags(' Race Director, ,VIP,  ')).toEqual(['Race Director', 'VIP']);
    stubFetch({
      'GET /api/mailchimp/test': {
        body: {
          success: true,
          message: 'Connected to Mailchimp account Pacer',
          data: { account_name: 'Pacer', email: 'o@example.org', industry: 'Sports', total_subscribers: 1200 },
        },
      },
      'GET /api/mailchimp/audiences': {
        status: 502,
        body: { success: false, message: 'Mailchimp: Too Many Requests', code: 'upstream_failed' },
      },
    });
    renderIntegrations('/integrations?tab=email');
    const panel = screen.getByRole('tabpanel', { name: 'Email Marketing' });
    fireEvent.click(within(panel).getByRole('button', { name: 'Add Member' }));
    expect((await findToast('Missing Information')).textContent).toContain('Please select an audience and provide an email address');

    fireEvent.click(within(panel).getByRole('button', { name: 'Test Connection' }));
    expect((await findToast('Failed to Load Audiences')).textContent).toContain('Mailchimp: Too Many Requests');
    expect(screen.getByTestId('account-info').textContent).toContain('1,200');
    expect(screen.getByTestId('mailchimp-status').textContent).toBe('Connected');

    stubFetch({
      'GET /api/mailchimp/audiences': { body: [{ id: 'aud1', name: 'Runners Weekly', stats: { member_count: 42 } }] },
      'POST /api/mailchimp/audiences/aud1/members': (body) =>
        (body as { email: string }).email === 'taken@example.org'
          ? {
              status: 400,
              body: { success: false, message: 'Mailchimp: Invalid Resource: email_address: This value should be a valid email.' },
            }
          : { body: { success: true, message: 'x@example.org was added to the audience' } },
    });
    fireEvent.click(within(panel).getByRole('button', { name: 'Load Audiences' }));
    await waitFor(() => expect(screen.getByTestId('audience-list').textContent).toContain('Runners Weekly42 members'));
    fireEvent.change(within(screen.getByTestId('add-member-form')).getByLabelText(/Audience/), { target: { value: 'aud1' } });
    fireEvent.change(screen.getByLabelText(/Email/, { selector: 'input' }), { target: { value: 'x@example.org' } });
    fireEvent.change(screen.getByLabelText('Tags'), { target: { value: 'A, B ,,' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Add Member' }));
    expect((await findToast('Member Added Successfully')).textContent).toContain('x@example.org was added to the audience');
    const posted = (globalThis.fetch as ReturnType<typeof vi.fn>).mock.calls.find(([url]) => String(url).endsWith('/members'));
    expect(JSON.parse(String((posted![1] as RequestInit).body))).toEqual({
      email: 'x@example.org',
      firstName: '',
      lastName: '',
      phone: '',
      tags: ['A', 'B'],
    });

    fireEvent.change(screen.getByLabelText(/Email/, { selector: 'input' }), { target: { value: 'taken@example.org' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Add Member' }));
    expect((await findToast('Failed to Add Member')).textContent).toContain('This value should be a valid email');
  });

  it("pushes contacts to an audience as a job: a dry run, then a real run, with progress and the CLI's summary", async () => {
    const posted: unknown[] = [];
    let current = jobView();
    stubFetch({
      'GET /api/mailchimp/audiences': { body: [{ id: 'aud1', name: 'Runners Weekly', stats: { member_count: 42 } }] },
      'POST /api/jobs': (body) => {
        posted.push(body);
        return { status: 202, body: { id: posted.length + 20 } };
      },
      'GET /api/jobs/21': () => ({ body: current }),
      'GET /api/jobs/22': () => ({ body: current }),
    });
    renderIntegrations('/integrations?tab=email');
    const form = screen.getByTestId('push-form');
    fireEvent.click(within(form).getByRole('button', { name: 'Push Contacts' }));
    expect((await findToast('Missing Information')).textContent).toContain('Please select an audience');
    expect(posted).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Load Audiences' }));
    await waitFor(() =>
      expect(
        within(form)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toContain('Runners Weekly'),
    );
    fireEvent.change(within(form).getByLabelText(/Audience/), { target: { value: 'aud1' } });
    fireEvent.change(within(form).getByLabelText('Contacts of'), { target: { value: 'professional' } });
    fireEvent.change(within(form).getByLabelText('Only with tag'), { target: { value: ' VIP ' } });
    expect((within(form).getByLabelText(/Dry run/) as HTMLInputElement).checked).toBe(true);
    current = jobView({
      id: 21,
      type: 'newsletter',
      params: { audienceId: 'aud1', dryRun: true },
      progress: { done: 0, total: null, phase: 'Pushing contacts' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Push Contacts' }));
    await waitFor(() => expect(within(form).getByTestId('job-progress').textContent).toContain('Pushing contacts'));
    expect(posted[0]).toEqual({ type: 'newsletter', params: { audienceId: 'aud1', ownerType: 'professional', tag: 'VIP', dryRun: true } });
    current = {
      ...current,
      state: 'succeeded',
      result: { total: 3, added: 0, updated: 0, unsubscribed: 0, failed: 0, errors: [], dryRun: true },
    };
    expect((await findToast('Newsletter push finished')).textContent).toContain('Dry run: 3 contacts would be pushed to audience aud1');
    expect(within(form).getByTestId('push-summary').textContent).toBe('Dry run: 3 contacts would be pushed to audience aud1');

    fireEvent.click(within(form).getByLabelText(/Dry run/));
    current = jobView({
      id: 22,
      type: 'newsletter',
      params: { audienceId: 'aud1' },
      progress: { done: 50, total: 120, phase: 'Pushing contacts' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Push Contacts' }));
    await waitFor(() => expect(within(form).getByTestId('job-progress-counts').textContent).toContain('50 / 120 contacts'));
    expect(within(form).getByRole('button', { name: 'Pushing...' })).toBeTruthy();
    expect((posted[1] as { params: { dryRun: boolean } }).params.dryRun).toBe(false);
    current = {
      ...current,
      state: 'succeeded',
      result: {
        total: 120,
        added: 100,
        updated: 18,
        unsubscribed: 1,
        failed: 1,
        errors: ['x@example.org: Invalid Resource'],
        dryRun: false,
      },
    };
    await waitFor(() =>
      expect(within(form).getByTestId('push-summary').textContent).toBe(
        'Pushed 120 contacts to audience aud1: 100 added, 18 updated, 1 unsubscribed (kept unsubscribed), 1 failedx@example.org: Invalid Resource',
      ),
    );
    expect(within(form).queryByTestId('job-progress')).toBeNull();
  });

  it('lets a viewer see the push form but not start a push', () => {
    renderIntegrations('/integrations?tab=email', 'viewer');
    const form = screen.getByTestId('push-form');
    expect(within(form).queryByRole('button', { name: 'Push Contacts' })).toBeNull();
    expect(form.textContent).toContain('Viewers can see pushes on the Jobs page but not start one.');
  });
});
