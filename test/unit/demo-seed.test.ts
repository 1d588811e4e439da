import { afterEach, describe, expect, it } from 'vitest';
import { decodeRow } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import type { AppContext } from '@services/context.js';
import { getDashboard } from '@services/dashboard/service.js';
import { seedDemoData } from '@seeds/demo.js';
import { RUN_TYPES, TRACK_TYPES } from '@shared/choices.js';
import { FakeClock, testServiceContext } from '../helpers/app.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/db.js';

/** Issue 29 point 8: a demo loaded on any day looks alive on that day. */
describe(`the demo data on ${testDialect}`, () => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.destroy();
    t = undefined;
  });

  async function seededOn(now: string): Promise<AppContext> {
    t = await createTestDatabase();
    const ctx: AppContext = testServiceContext(t, { clock: new FakeClock(new Date(now)) });
    await seedDemoData(ctx);
    return ctx;
  }

  // Two days years apart: nothing in the demo may be pinned to a calendar year.
  for (const now of ['2026-11-28T09:00:00.000Z', '2031-06-15T22:30:00.000Z']) {
    it(`seeded on ${now.slice(0, 10)}: events in the next 60 days, one just run, and a Pending payment overdue`, async () => {
      const ctx = await seededOn(now);
      const today = now.slice(0, 10);
      const dashboard = await getDashboard(ctx, 'UTC');
      expect(dashboard.upcomingEvents.total).toBeGreaterThanOrEqual(3);
      const dates = (await ctx.db('events').whereNotNull('eventStartDate').pluck('eventStartDate')).map((d: unknown) =>
        String(decodeRow<{ d: string }>({ d: 'date' }, { d }).d),
      );
      expect(dates.some((date) => date < today)).toBe(true);
      // Spread up to about a year ahead.
      expect(dates.some((date) => date > dashboard.upcomingEvents.until)).toBe(true);
      const payments = (await ctx.db('payments').select('invoiceStatus', 'paymentDate')).map((row: Record<string, unknown>) =>
        decodeRow<{ invoiceStatus: string; paymentDate: string }>(columnKinds.payments, row),
      );
      const overdue = payments.filter((p) => p.invoiceStatus === 'pending' && p.paymentDate < today);
      expect(overdue.length).toBeGreaterThanOrEqual(1);
      expect(payments.some((p) => p.paymentDate >= today)).toBe(true);
    });
  }

  it('stores run types and track types each in their own field, as the forms offer them', async () => {
    const ctx = await seededOn('2026-11-28T09:00:00.000Z');
    const rows = (await ctx.db('events').select('runType', 'trackType')).map((row: Record<string, unknown>) =>
      decodeRow<{ runType: string[]; trackType: string[] }>(columnKinds.events, row),
    );
    const trackTypes: readonly string[] = TRACK_TYPES;
    const runTypes: readonly string[] = RUN_TYPES;
    for (const row of rows) {
      expect(
        row.trackType.every((type) => trackTypes.includes(type)),
        JSON.stringify(row),
      ).toBe(true);
      expect(
        row.runType.some((type) => trackTypes.includes(type)),
        JSON.stringify(row),
      ).toBe(false);
    }
    expect(rows.flatMap((row) => row.runType).filter((type) => runTypes.includes(type)).length).toBeGreaterThan(0);
  });
});
