import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as page from '@views/pages/integrations/integrations-page.js';
import { parseTags } from '@views/pages/integrations/mailchimp-tab.js';
import { findToast, renderPage } from './records-render.js';
import type { Role } from '@shared/roles.js';
import type { IntegrationsOverview } from '@shared/schemas/integrations.js';

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
      notices: [],
    },
  },
};

type Answer = { status?: number; body: unknown };
function stubFetch(routes: Record<string, Answer | ((body: unknown) => Answer | Promise<Answer>)>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      const route = routes[`${method} ${url}`] ?? routes[`${method} ${url.split('?')[0]}`];
      const answer = typeof route === 'function' ? await route(body) : (route ?? { status: 404, body: { message: 'no route' } });
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      return new Response(text, { status: answer.status ?? 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
}

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
    const clubs = within(screen.getByTestId('sync-card-runclubs')).getByTestId('sync-last-run').textContent;
    expect(clubs).toContain('Succeeded');
    expect(clubs).toContain('By staff@example.org · changes only · 2 created, 5 updated, 1 problems · 1.5 s');
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

  it('enables syncing after a successful test, shows Syncing..., the result and the toasts', async () => {
    let finish: (answer: Answer) => void = () => undefined;
    const pending = new Promise<Answer>((resolve) => (finish = resolve));
    stubFetch({
      'GET /api/wordpress/test': { body: { success: true, message: 'Connected to Pacer as Edith' } },
      'GET /api/wordpress/site-info': { body: { name: 'Pacer & Friends', url: 'https://cms.example.org', description: 'Runners’ news' } },
      'GET /api/integrations/overview': { body: overview },
      'POST /api/sync/events': () => pending,
      'POST /api/sync/professionals': {
        status: 409,
        body: { success: false, message: 'A sync of professionals is already running', code: 'sync_running' },
      },
    });
    renderIntegrations();
    fireEvent.click(screen.getByRole('button', { name: 'Test Connection' }));
    expect((await findToast('Connection Successful')).textContent).toContain('Connected to Pacer as Edith');
    await waitFor(() => expect(screen.getByTestId('site-info').textContent).toContain('Pacer & Friends'));
    expect(screen.getByTestId('overview-wordpress-status').textContent).toBe('Connected');

    fireEvent.click(screen.getByRole('button', { name: 'Sync Events' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sync Events' }).textContent).toBe('Syncing...'));
    expect((screen.getByRole('button', { name: 'Sync Events' }) as HTMLButtonElement).disabled).toBe(true);
    finish({
      body: {
        success: true,
        message: '3 events read',
        created: 2,
        updated: 1,
        errors: ['Event bad'],
        unpublished: ['Event gone'],
        kind: 'events',
      },
    });
    expect((await findToast('Sync Successful')).textContent).toContain('3 events read');
    const result = within(screen.getByTestId('sync-card-events')).getByTestId('sync-result').textContent;
    expect(result).toContain('2 created');
    expect(result).toContain('1 updated');
    expect(result).toContain('1 errors');
    expect(result).toContain('1 no longer published (kept)');

    fireEvent.click(screen.getByRole('button', { name: 'Sync Professionals' }));
    expect((await findToast('Sync Failed')).textContent).toContain('A sync of professionals is already running');
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
    fireEvent.change(screen.getByLabelText(/Audience/), { target: { value: 'aud1' } });
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
});
