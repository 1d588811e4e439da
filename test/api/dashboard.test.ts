import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '@shared/schemas/dashboard.js';
import type { DeletedItem } from '@shared/schemas/trash.js';
import { rebuildPaymentTotals } from '@services/payments/totals.js';
import { finishSyncRun, insertSyncRun } from '@services/sync/queries.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const finished = (started: Date) => ({
  finishedAt: new Date(started.getTime() + 5000),
  success: true,
  created: 0,
  updated: 0,
  failed: 0,
  durationMs: 5000,
  message: 'done',
  errors: [] as string[],
  notices: [] as string[],
});

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

describe('dashboard (GET /api/dashboard and the page at /)', () => {
  let t: TestApp;
  let agent: Agent;
  const ids: Record<string, number> = {};

  async function create(path: string, body: Record<string, unknown>): Promise<number> {
    const res = await agent.post(path).send(body);
    if (res.status !== 201) throw new Error(`${path} → ${res.status} ${res.text}`);
    return (res.body as { id: number }).id;
  }
  const payment = (entityType: string, entityId: number, amount: string, invoiceStatus: string, paymentDate: string | null) =>
    create('/api/payments', { entityType, entityId, description: `${invoiceStatus} ${amount}`, amount, invoiceStatus, paymentDate });

  beforeAll(async () => {
    t = await createTestApp();
    ({ agent } = await t.signedInAgent());
    // The fake clock reads 2026-11-21 09:00 UTC; without a tz cookie "today" is 2026-11-21.
    ids.soon = await create('/api/events', {
      eventName: 'Soon Fun Run',
      eventStartDate: '2026-11-25',
      featuredRace: true,
      locationState: 'NSW',
    });
    ids.edge = await create('/api/events', { eventName: 'Edge Ultra', eventStartDate: '2027-01-20' });
    ids.late = await create('/api/events', { eventName: 'Too Late 10K', eventStartDate: '2027-01-21' });
    ids.past = await create('/api/events', { eventName: 'Last Week Relay', eventStartDate: '2026-11-20' });
    ids.brand = await create('/api/brands', { brandName: 'Stride Shoes' });
    ids.pro = await create('/api/professionals', { businessName: 'Coastal Coaching' });
    await payment('brand', ids.brand, '0.10', 'pending', '2026-03-01');
    await payment('brand', ids.brand, '0.20', 'overdue', '2026-10-01');
    await payment('brand', ids.brand, '5.00', 'paid', '2026-11-02');
    await payment('event', ids.soon, '1.00', 'pending', null);
    await payment('brand', ids.brand, '7.00', 'paid', '2025-11-30');
    await payment('professional', ids.pro, '9.00', 'paid', '2026-11-03');
    // The brand changes last, a minute later.
    t.clock.advance(60_000);
    const updated = await agent.put(`/api/brands/${ids.brand}`).send({ brandName: 'Stride Shoes', industryCategory: 'Footwear' });
    expect(updated.status).toBe(200);
  });
  afterAll(async () => t.close());

  const read = async () => {
    const res = await agent.get('/api/dashboard');
    expect(res.status).toBe(200);
    return res.body as Dashboard;
  };

  it('keeps the six counts and lists the events starting in the next 60 days, soonest first', async () => {
    const dashboard = await read();
    expect(dashboard.today).toBe('2026-11-21');
    expect(dashboard.stats).toMatchObject({ events: 4, brands: 1, professionals: 1, runClubs: 0, media: 0, influencers: 0 });
    expect(dashboard.upcomingEvents.until).toBe('2027-01-20');
    expect(dashboard.upcomingEvents.total).toBe(2);
    expect(dashboard.upcomingEvents.items.map((event) => event.eventName)).toEqual(['Soon Fun Run', 'Edge Ultra']);
    expect(dashboard.upcomingEvents.items[0]).toMatchObject({ eventStartDate: '2026-11-25', featuredRace: true, locationState: 'NSW' });
    // The first event after the window, for an empty window to point to.
    expect(dashboard.upcomingEvents.next).toEqual({ id: ids.late, eventName: 'Too Late 10K', eventStartDate: '2027-01-21' });
  });

  it('counts and sums the payments awaiting payment exactly, the oldest first with their owners', async () => {
    const { awaitingPayment } = await read();
    expect(awaitingPayment.count).toBe(3);
    expect(awaitingPayment.total).toBe('1.30');
    // Past due today: the one marked overdue and the pending one dated before today (not the undated one).
    expect(awaitingPayment.overdue).toEqual({ count: 2, total: '0.30' });
    expect(awaitingPayment.oldest.map((row) => [row.amount, row.paymentDate, row.invoiceStatus, row.owner])).toEqual([
      ['0.10', '2026-03-01', 'pending', { type: 'brand', id: ids.brand, name: 'Stride Shoes' }],
      ['0.20', '2026-10-01', 'overdue', { type: 'brand', id: ids.brand, name: 'Stride Shoes' }],
      ['1.00', null, 'pending', { type: 'event', id: ids.soon, name: 'Soon Fun Run' }],
    ]);
  });

  it('sums event and brand payments per month for the last 12 months, empty months included', async () => {
    const { advertisingSpend } = await read();
    expect(advertisingSpend.map((entry) => entry.month)).toEqual([
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
      '2026-11',
    ]);
    const byMonth = Object.fromEntries(advertisingSpend.map((entry) => [entry.month, entry.total]));
    // The professional's payment is no advertising; 2025-11 is older than 12 months.
    expect(byMonth).toMatchObject({ '2026-03': '0.10', '2026-10': '0.20', '2026-11': '5.00', '2026-01': '0.00' });
  });

  it('lists the most recently changed records across types, and no sync when none ran', async () => {
    const dashboard = await read();
    expect(dashboard.recentlyChanged[0]).toMatchObject({ type: 'brand', id: ids.brand, name: 'Stride Shoes' });
    expect(dashboard.recentlyChanged).toHaveLength(6);
    expect(dashboard.lastSyncs).toEqual({ events: null, professionals: null, runclubs: null });
    const times = dashboard.recentlyChanged.map((record) => record.updatedAt);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('shows the latest run of each sync kind with its result, as the Integrations page does', async () => {
    const started = new Date('2026-11-21T08:00:00Z');
    const older = await insertSyncRun(t.ctx.db, { kind: 'runclubs', trigger: 'manual', startedBy: null, startedAt: started, full: false });
    await finishSyncRun(t.ctx.db, older, { ...finished(started), success: false, failed: 2, errors: ['Post 4: no title'] });
    const latest = await insertSyncRun(t.ctx.db, {
      kind: 'runclubs',
      trigger: 'schedule',
      startedBy: null,
      startedAt: started,
      full: true,
    });
    await finishSyncRun(t.ctx.db, latest, { ...finished(started), success: true, created: 3, notices: ['Post 9: no distance'] });
    const unfinished = await insertSyncRun(t.ctx.db, {
      kind: 'events',
      trigger: 'manual',
      startedBy: null,
      startedAt: started,
      full: false,
    });

    const { lastSyncs } = await read();
    expect(lastSyncs.professionals).toBeNull();
    expect(lastSyncs.runclubs).toEqual({
      id: latest,
      kind: 'runclubs',
      trigger: 'schedule',
      startedBy: null,
      startedAt: '2026-11-21T08:00:00.000Z',
      finishedAt: '2026-11-21T08:00:05.000Z',
      status: 'succeeded',
      full: true,
      created: 3,
      updated: 0,
      failed: 0,
      durationMs: 5000,
      message: 'done',
      errors: [],
      warnings: [],
      notices: ['Post 9: no distance'],
    });
    expect(lastSyncs.events).toMatchObject({ id: unfinished, status: 'unfinished', finishedAt: null, errors: [] });
  });

  it('costs the same number of queries however many payments await (no query per row)', async () => {
    const count = async () => {
      let queries = 0;
      const listener = () => void queries++;
      t.ctx.db.on('query', listener);
      try {
        await read();
      } finally {
        t.ctx.db.removeListener('query', listener);
      }
      return queries;
    };
    const before = await count();
    for (const name of ['Second Brand', 'Third Brand']) {
      const brand = await create('/api/brands', { brandName: name });
      await payment('brand', brand, '2.00', 'pending', '2026-01-01');
    }
    const media = await create('/api/media', { mediaName: 'Run Weekly' });
    await payment('media', media, '3.00', 'pending', '2026-02-01');
    // Six payments await now, five are shown (of two owner types, as before: brands and now media instead of the
    // undated event's), and the dashboard still asks the same number of queries.
    const { awaitingPayment } = await read();
    expect([awaitingPayment.count, awaitingPayment.total, awaitingPayment.oldest.length]).toEqual([6, '8.30', 5]);
    expect(new Set(awaitingPayment.oldest.map((row) => row.owner.type))).toEqual(new Set(['brand', 'media']));
    expect(await count()).toBe(before);
    // The session check, then every number and every list in one statement: two reads in all.
    expect(before).toBeLessThanOrEqual(2);
  });

  it('renders every block and the chart on the server, so they show on first paint', async () => {
    const res = await agent.get('/');
    expect(res.status).toBe(200);
    for (const text of ['Upcoming events', 'Awaiting payment', 'Advertising spend', 'Last sync', 'Recently changed', 'Soon Fun Run'])
      expect(res.text).toContain(text);
    expect(res.text).toMatch(/<svg[^>]*class="spend-chart-svg"/);
    expect(res.text).toContain('class="spend-chart-bar"');
    expect(res.text).toContain('href="/events?view=calendar"');
    expect(res.text).toContain(`href="/brands/${ids.brand}?tab=payments"`);
  });
});

describe('dashboard figures follow every payment write', () => {
  let t: TestApp;
  let agent: Agent;
  afterAll(async () => t.close());

  it('after a payment is edited or deleted, and after its owner is deleted and restored', async () => {
    t = await createTestApp();
    ({ agent } = await t.signedInAgent('admin@example.org', 'admin'));
    const created = async (path: string, body: Record<string, unknown>) => {
      const res = await agent.post(path).send(body);
      expect(res.status).toBe(201);
      return (res.body as { id: number }).id;
    };
    const brand = await created('/api/brands', { brandName: 'Stride Shoes' });
    const event = await created('/api/events', { eventName: 'Harbour 10K', eventStartDate: '2026-12-01' });
    const pending = {
      entityType: 'brand',
      entityId: brand,
      description: 'Banner',
      amount: '10.00',
      invoiceStatus: 'pending',
      paymentDate: '2026-10-05',
    };
    const brandPayment = await created('/api/payments', pending);
    const eventPayment = await created('/api/payments', {
      entityType: 'event',
      entityId: event,
      description: 'Listing',
      amount: '4.00',
      invoiceStatus: 'paid',
      paymentDate: '2026-09-10',
    });
    const figures = async () => {
      const res = await agent.get('/api/dashboard');
      expect(res.status).toBe(200);
      const dashboard = res.body as Dashboard;
      const spend = Object.fromEntries(dashboard.advertisingSpend.map((entry) => [entry.month, entry.total]));
      return {
        brands: dashboard.stats.brands,
        awaiting: [
          dashboard.awaitingPayment.count,
          dashboard.awaitingPayment.total,
          dashboard.awaitingPayment.oldest.map((row) => row.owner.name),
        ],
        spend: [spend['2026-08'], spend['2026-09'], spend['2026-10']],
      };
    };
    expect(await figures()).toEqual({ brands: 1, awaiting: [1, '10.00', ['Stride Shoes']], spend: ['0.00', '4.00', '10.00'] });

    const edited = await agent
      .put(`/api/payments/${brandPayment}`)
      .send({ ...pending, amount: '12.50', invoiceStatus: 'paid', paymentDate: '2026-08-01' });
    expect(edited.status).toBe(200);
    expect(await figures()).toEqual({ brands: 1, awaiting: [0, '0.00', []], spend: ['12.50', '4.00', '0.00'] });

    expect((await agent.delete(`/api/payments/${eventPayment}`)).status).toBe(204);
    expect(await figures()).toEqual({ brands: 1, awaiting: [0, '0.00', []], spend: ['12.50', '0.00', '0.00'] });

    expect((await agent.delete(`/api/brands/${brand}`)).status).toBe(204);
    expect(await figures()).toEqual({ brands: 0, awaiting: [0, '0.00', []], spend: ['0.00', '0.00', '0.00'] });

    const deleted = (await agent.get('/api/deleted')).body as DeletedItem[];
    const entry = deleted.find((item) => item.type === 'brand' && item.entityId === brand)!;
    expect((await agent.post(`/api/deleted/${entry.id}/restore`)).status).toBe(200);
    expect(await figures()).toEqual({ brands: 1, awaiting: [0, '0.00', []], spend: ['12.50', '0.00', '0.00'] });

    // The totals kept write by write are the totals a rebuild from the rows gives.
    const kept = async () =>
      ((await t.ctx.db('payment_totals').where('payments', '>', 0).orderBy('bucket')) as Array<Record<string, unknown>>).map((row) => [
        row.bucket,
        Number(row.payments),
        Number(row.cents),
      ]);
    const written = await kept();
    expect(written).toEqual([['spend:2026-08', 1, 1250]]);
    await rebuildPaymentTotals(t.ctx.db);
    expect(await kept()).toEqual(written);
  });
});
