import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@test/helpers/app.js';

/** The SQL each request runs: the detail page's cost is mostly its round trips to the database. */
function recordQueries(t: TestApp): { sql: string[]; stop: () => void } {
  const sql: string[] = [];
  const listener = (query: { sql: string }) => sql.push(query.sql);
  t.database.db.on('query', listener);
  return { sql, stop: () => t.database.db.off('query', listener) };
}

const tableOf = (sql: string) => /from [`"]?(\w+)/i.exec(sql)?.[1];

describe('a detail page reads each table it shows once', () => {
  let t: TestApp;
  let agent: Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];
  let eventId: number;

  beforeAll(async () => {
    t = await createTestApp();
    ({ agent } = await t.signedInAgent());
    eventId = (await agent.post('/api/events').send({ eventName: 'Harbour Fun Run' })).body.id as number;
    for (const firstName of ['Ann', 'Bo', 'Cy'])
      expect(
        (await agent.post('/api/contacts').send({ entityType: 'event', entityId: eventId, firstName, lastName: 'Runner' })).status,
      ).toBe(201);
    for (const amount of ['0.10', '0.20'])
      expect((await agent.post('/api/payments').send({ entityType: 'event', entityId: eventId, description: 'Ad', amount })).status).toBe(
        201,
      );
  });
  afterAll(() => t.close());

  it('answers the event page with its contacts, payments and total in one query per table', async () => {
    const queries = recordQueries(t);
    const res = await agent.get(`/events/${eventId}`);
    queries.stop();
    expect(res.status).toBe(200);
    expect(res.text).toContain('Harbour Fun Run');
    for (const name of ['Ann', 'Bo', 'Cy']) expect(res.text).toContain(name);
    expect(res.text).toContain('"paymentsTotal":"0.30"');

    // The header's due and unread counts: one statement (a subquery on tasks and one on notifications).
    const counts = queries.sql.filter((sql) => /notifications/.test(sql));
    expect(counts).toHaveLength(1);
    expect(counts[0]).toMatch(/from [`"]?tasks/);
    // sessions: the session check (one join with users); then the event, its distances, contacts, payments and files.
    const tables = queries.sql.filter((sql) => !counts.includes(sql)).map(tableOf);
    expect(tables.filter((table) => table !== 'sessions').sort()).toEqual(['contacts', 'event_distances', 'events', 'files', 'payments']);
  });

  it("links a synced event's public page from the event it read, without reading the event again", async () => {
    await t.database.db('events').where({ id: eventId }).update({ wordpressEventId: 4242 });
    const site = t.config.wordpress.publicSiteUrl;
    t.config.wordpress.publicSiteUrl = 'https://www.example.org/';
    try {
      const queries = recordQueries(t);
      const res = await agent.get(`/events/${eventId}`);
      queries.stop();
      expect(res.status).toBe(200);
      expect(res.text).toContain('href="https://www.example.org/?p=4242"');
      expect(queries.sql.map(tableOf).filter((table) => table === 'events')).toHaveLength(1);
      // Without a public site the page says so to an admin, as a hint to fix the setting; staff see no row.
      t.config.wordpress.publicSiteUrl = undefined;
      expect((await agent.get(`/events/${eventId}`)).text).not.toContain('Public site address not configured');
      const admin = (await t.signedInAgent('page-admin@example.org', 'admin')).agent;
      expect((await admin.get(`/events/${eventId}`)).text).toContain('Public site address not configured');
    } finally {
      t.config.wordpress.publicSiteUrl = site;
      await t.database.db('events').where({ id: eventId }).update({ wordpressEventId: null });
    }
  });

  it('still answers 404 with the not-found view for a missing record, without reading what hangs off it twice', async () => {
    const queries = recordQueries(t);
    const res = await agent.get('/events/987654');
    queries.stop();
    expect(res.status).toBe(404);
    expect(res.text).toContain('Event not found');
    expect(queries.sql.map(tableOf).filter((table) => table === 'events')).toHaveLength(1);
  });

  it('counts and sums in the database only when the payments do not fit in one page', async () => {
    const list = await agent.get(`/api/payments?entityType=event&entityId=${eventId}&limit=1`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 2, totalAmount: '0.30' });
    expect(list.body.items).toHaveLength(1);
    const all = await agent.get(`/api/payments?entityType=event&entityId=${eventId}`);
    expect(all.body).toMatchObject({ total: 2, totalAmount: '0.30' });
    expect(all.body.items).toHaveLength(2);
    const later = await agent.get(`/api/payments?entityType=event&entityId=${eventId}&limit=1&offset=1`);
    expect(later.body).toMatchObject({ total: 2, totalAmount: '0.30' });
    expect(later.body.items).toHaveLength(1);
  });
});
