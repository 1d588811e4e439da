import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import * as page from '@views/pages/dashboard/dashboard-page.js';
import type { Dashboard } from '@shared/schemas/dashboard.js';
import type { SyncRunView } from '@shared/schemas/integrations.js';
import { renderPage } from './records-render.js';

const run = (kind: SyncRunView['kind'], status: SyncRunView['status'], created: number, updated: number): SyncRunView => ({
  id: created + updated,
  kind,
  trigger: 'web',
  startedBy: 'staff@example.org',
  startedAt: '2026-11-20T01:00:00.000Z',
  finishedAt: '2026-11-20T01:00:02.000Z',
  status,
  full: true,
  created,
  updated,
  failed: 0,
  durationMs: 2000,
  message: null,
  errors: [],
  warnings: [],
  notices: [],
});

const dashboard: Dashboard = {
  today: '2026-11-25',
  stats: { events: 0, professionals: 0, runClubs: 0, brands: 0, media: 0, influencers: 0 },
  upcomingEvents: { until: '2027-01-24', total: 0, next: null, items: [] },
  awaitingPayment: { count: 0, total: '0.00', overdue: { count: 0, total: '0.00' }, oldest: [] },
  advertisingSpend: [],
  lastSyncs: { events: run('events', 'cancelled', 100, 2), professionals: run('professionals', 'failed', 0, 0), runclubs: null },
  recentlyChanged: [],
};

describe('dashboard: last sync', () => {
  it("shows a cancelled sync with a neutral 'Cancelled' badge and its counts, a failed one with a danger badge", async () => {
    renderPage({ path: '/dashboard', url: '/dashboard', Component: page.Component, data: dashboard, loader: () => dashboard });
    const rows = within(await screen.findByTestId('dashboard-syncs')).getAllByRole('listitem');
    const [events, professionals, runclubs] = rows;
    const cancelled = events!.querySelector('.badge')!;
    expect(cancelled.textContent).toBe('Cancelled');
    expect(cancelled.className).toBe('badge badge-muted');
    expect(events!.textContent).toContain('100 new · 2 updated');
    const failed = professionals!.querySelector('.badge')!;
    expect(failed.textContent).toBe('Failed');
    expect(failed.className).toBe('badge badge-danger');
    expect(runclubs!.textContent).toContain('Never synced');
  });

  it("does not call a finished run with errors 'Succeeded', as the Integrations page does not", async () => {
    const withErrors = { ...run('runclubs', 'succeeded', 3, 1), failed: 2, errors: ['Post 7: not saved'] };
    const clean = run('events', 'succeeded', 5, 0);
    const data = { ...dashboard, lastSyncs: { ...dashboard.lastSyncs, events: clean, runclubs: withErrors } };
    renderPage({ path: '/dashboard', url: '/dashboard', Component: page.Component, data, loader: () => data });
    const [events, , runclubs] = within(await screen.findByTestId('dashboard-syncs')).getAllByRole('listitem');
    expect(events!.querySelector('.badge')!.textContent).toBe('Succeeded');
    expect(runclubs!.querySelector('.badge')!.textContent).toBe('Completed with errors');
  });
});

describe('dashboard: overdue payments', () => {
  it('says how many awaiting payments are overdue and how much, and badges a pending one past its date Overdue', async () => {
    const withOverdue: Dashboard = {
      ...dashboard,
      awaitingPayment: {
        count: 2,
        total: '1250.00',
        overdue: { count: 1, total: '1200.00' },
        oldest: [
          {
            id: 1,
            description: 'Banner',
            amount: '1200.00',
            paymentDate: '2026-09-01',
            invoiceStatus: 'pending',
            owner: { type: 'brand', id: 3, name: 'Stride' },
          },
          {
            id: 2,
            description: 'Slot',
            amount: '50.00',
            paymentDate: '2026-12-01',
            invoiceStatus: 'pending',
            owner: { type: 'brand', id: 3, name: 'Stride' },
          },
        ],
      },
    };
    renderPage({ path: '/dashboard', url: '/dashboard', Component: page.Component, data: withOverdue, loader: () => withOverdue });
    const block = await screen.findByTestId('dashboard-awaiting');
    expect(within(block).getByTestId('dashboard-overdue').textContent).toBe(' · 1 overdue ($1,200.00)');
    const [late, due] = within(block).getAllByRole('listitem');
    expect(late!.querySelector('.badge')!.textContent).toBe('Overdue');
    expect(late!.querySelector('.badge')!.className).toBe('badge badge-danger');
    expect(due!.querySelector('.badge')!.textContent).toBe('Pending');
  });
});

describe('dashboard: an empty next 60 days', () => {
  it('points to the next event after the window, linked, or says there is none', async () => {
    const withNext: Dashboard = {
      ...dashboard,
      upcomingEvents: { ...dashboard.upcomingEvents, next: { id: 9, eventName: 'Autumn Trail', eventStartDate: '2027-03-14' } },
    };
    const first = renderPage({ path: '/dashboard', url: '/dashboard', Component: page.Component, data: withNext, loader: () => withNext });
    const next = await screen.findByTestId('dashboard-next-event');
    expect(next.textContent).toBe('Next event: Autumn Trail on 14 Mar 2027');
    expect(within(next).getByRole('link', { name: 'Autumn Trail' }).getAttribute('href')).toBe('/events/9');
    first.unmount();
    renderPage({ path: '/dashboard', url: '/dashboard', Component: page.Component, data: dashboard, loader: () => dashboard });
    expect((await screen.findByTestId('dashboard-next-event')).textContent).toBe('No events are scheduled after this.');
  });
});

describe('dashboard: advertising spend chart', () => {
  it('labels its scale in whole dollars, without cents', async () => {
    const withSpend: Dashboard = {
      ...dashboard,
      advertisingSpend: [
        { month: '2026-10', total: '1234.56' },
        { month: '2026-11', total: '3000.10' },
      ],
    };
    renderPage({ path: '/dashboard', url: '/dashboard', Component: page.Component, data: withSpend, loader: () => withSpend });
    const block = await screen.findByTestId('dashboard-spend');
    expect(block.querySelector('.spend-chart-scale')!.textContent).toBe('$5,000');
  });
});
