import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '@db/transaction.js';
import { definitionOf } from '@services/records/definitions.js';
import { matchingIds } from '@services/records/queries.js';
import { deleteRecordRow } from '@services/records/writes.js';
import { globalSearch } from '@services/search/service.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];
interface Group {
  type: string;
  total: number;
  items: Array<{ id: number; title: string; subtitle: string; url: string }>;
}

describe('global search', () => {
  let t: TestApp;
  let agent: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    agent = (await t.signedInAgent()).agent;
    for (let i = 1; i <= 7; i++) await agent.post('/api/events').send({ eventName: `Harbour Run ${i}`, locationState: 'NSW' });
    const brand = (await agent.post('/api/brands').send({ brandName: 'Harbour Shoes', industryCategory: 'Footwear' })).body.id;
    await agent.post('/api/media').send({ mediaName: 'Trail Weekly' });
    await agent.post('/api/events').send({ eventName: 'Quay Dash', eventStartDate: '2027-08-01', locationState: 'QLD' });
    await agent.post('/api/professionals').send({ businessName: 'Quay Physio', professionType: 'massage-therapist', locationState: 'VIC' });
    await agent.post('/api/influencers').send({ firstName: 'Hana', lastName: 'Harbourside', instagramHandle: 'hana' });
    await agent
      .post('/api/contacts')
      .send({ entityType: 'brand', entityId: brand, firstName: 'Ivy', lastName: 'Harbour', email: 'ivy@shoes.example' });
  });
  afterAll(async () => t.close());

  const search = async (query: string) => {
    const res = await agent.get(`/api/search?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.groups as Group[];
  };

  it('answers every type, contacts too, grouped, newest first, with each group total', async () => {
    const groups = await search('q=HARBOUR&limit=3');
    expect(groups.map((g) => g.type)).toEqual(['event', 'professional', 'runclub', 'brand', 'media', 'influencer', 'contact']);
    const byType = Object.fromEntries(groups.map((g) => [g.type, g]));
    expect(byType.event!.total).toBe(7);
    expect(byType.event!.items.map((i) => i.title)).toEqual(['Harbour Run 7', 'Harbour Run 6', 'Harbour Run 5']);
    expect(byType.event!.items[0]).toMatchObject({ subtitle: 'NSW', url: expect.stringMatching(/^\/events\/\d+$/) });
    expect(byType.brand).toMatchObject({ total: 1, items: [{ title: 'Harbour Shoes', subtitle: 'Footwear' }] });
    expect(byType.influencer).toMatchObject({ total: 1, items: [{ title: 'Hana Harbourside', subtitle: '@hana · Influencer' }] });
    expect(byType.media).toEqual({ type: 'media', total: 0, items: [] });
    expect(byType.contact).toMatchObject({
      total: 1,
      items: [
        { title: 'Ivy Harbour', subtitle: 'ivy@shoes.example · Contact of Harbour Shoes', url: expect.stringMatching(/^\/contacts\/\d+$/) },
      ],
    });
    // The same substring semantics as the lists.
    expect((await search('q=bour ru'))[0]!.total).toBe(7);
    expect((await search('q=trail'))[4]!.items.map((i) => i.title)).toEqual(['Trail Weekly']);
  });

  it('reads enum values as their labels and gives an event its start day apart, for the palette to format', async () => {
    const groups = await search('q=quay');
    const byType = Object.fromEntries(groups.map((g) => [g.type, g]));
    expect(byType.event!.items).toMatchObject([{ title: 'Quay Dash', subtitle: 'QLD', date: '2027-08-01' }]);
    expect(byType.professional!.items).toMatchObject([{ title: 'Quay Physio', subtitle: 'Massage therapist · VIC' }]);
    expect(byType.event!.items[0]).not.toHaveProperty('subtitle', expect.stringContaining('2027'));
  });

  /** The statements one global search runs, and its totals per type. */
  const searchCounted = async (q: string) => {
    const statements: string[] = [];
    const capture = (query: { sql: string }) => void statements.push(query.sql);
    t.database.db.on('query', capture);
    try {
      const { groups } = await globalSearch(t.ctx, { q });
      return { statements, totals: Object.fromEntries(groups.map((g) => [g.type, g.total])), groups };
    } finally {
      t.database.db.off('query', capture);
    }
  };

  it('answers a repeated rare search in one statement, finding what was added since', async () => {
    // Nothing has "quokkazed": every type has grams without postings.
    const nothing = { event: 0, professional: 0, runclub: 0, brand: 0, media: 0, influencer: 0, contact: 0 };
    expect((await searchCounted('quokkazed')).totals).toEqual(nothing);
    const again = await searchCounted('quokkazed');
    expect(again.totals).toEqual(nothing);
    expect(again.statements).toHaveLength(1);

    // Added after the search (remembered as matching nothing): the next search finds them.
    const event = await agent.post('/api/events').send({ eventName: 'Quokkazed Dash' });
    expect(event.status, event.text).toBe(201);
    const brand = (await agent.post('/api/brands').send({ brandName: 'Plain Brand' })).body.id as number;
    const contact = await agent
      .post('/api/contacts')
      .send({ entityType: 'brand', entityId: brand, firstName: 'Quin', lastName: 'Quokkazed' });
    expect(contact.status, contact.text).toBe(201);
    // The lists count a gram again rather than trust a remembered zero.
    expect((await agent.get('/api/events?q=quokkazed')).body.total).toBe(1);
    const found = await searchCounted('quokkazed');
    expect(found.totals).toEqual({ ...nothing, event: 1, contact: 1 });
    expect(found.groups.find((g) => g.type === 'contact')!.items.map((i) => i.title)).toEqual(['Quin Quokkazed']);
    expect(found.groups.find((g) => g.type === 'event')!.items.map((i) => i.title)).toEqual(['Quokkazed Dash']);

    // A rare term with matches: once its grams are known, one statement too, and a rename is seen at once.
    await searchCounted('quokkazed');
    const known = await searchCounted('quokkazed');
    expect(known.statements).toHaveLength(1);
    expect(known.totals).toEqual({ ...nothing, event: 1, contact: 1 });
    const renamed = await agent.put(`/api/brands/${brand}`).send({ brandName: 'Quokkazed Gear' });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await searchCounted('quokkazed')).totals).toEqual({ ...nothing, event: 1, brand: 1, contact: 1 });
    await agent.delete(`/api/events/${event.body.id as number}`);
    expect((await searchCounted('quokkazed')).totals).toEqual({ ...nothing, brand: 1, contact: 1 });
  });

  it('finds older matches behind many newer look-alikes, and what is added after the candidates were kept', async () => {
    for (const n of [1, 2]) await agent.post('/api/events').send({ eventName: `Xylophone Run ${n}` });
    // Newer events with both of the term's trigrams, but not the term: the newest candidates, none of them a match.
    for (let n = 1; n <= 20; n++) await agent.post('/api/events').send({ eventName: `Xyl Ylo Race ${n}` });
    const events = async () => (await searchCounted('xylo')).groups.find((g) => g.type === 'event')!;
    for (let round = 0; round < 2; round++) {
      const found = (await globalSearch(t.ctx, { q: 'xylo', limit: '2' })).groups.find((g) => g.type === 'event')!;
      expect(found.total).toBe(2);
      expect(found.items.map((i) => i.title)).toEqual(['Xylophone Run 2', 'Xylophone Run 1']);
    }
    expect((await events()).total).toBe(2);
    // The candidates of "xylo" are kept now; a new match moves the change number, and they are read again.
    await agent.post('/api/events').send({ eventName: 'Xylo Dash' });
    const after = await events();
    expect(after.total).toBe(3);
    expect(after.items[0]!.title).toBe('Xylo Dash');
  });

  it('keeps no "no match" seen inside a transaction that then rolled back', async () => {
    const id = (await agent.post('/api/media').send({ mediaName: 'Wombatica Radio' })).body.id as number;
    expect((await searchCounted('wombatica')).totals.media).toBe(1);
    const rolledBack = new Error('rolled back on purpose');
    await expect(
      withTransaction({ db: t.database.db }, async (trx) => {
        await deleteRecordRow(trx, 'media', id);
        // Inside the transaction the gram has no posting left, at a change number the rollback takes back.
        expect(await matchingIds(trx, definitionOf('media'), 'wombatica')).toBeNull();
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    // Another change of media brings the change number to the one seen inside the transaction.
    expect((await agent.post('/api/media').send({ mediaName: 'Other Weekly' })).status).toBe(201);
    expect((await searchCounted('wombatica')).totals.media).toBe(1);
  });

  it('refuses a missing or bad query with a 400', async () => {
    for (const [query, message] of [
      ['', 'Search text must be text'],
      ['q=%20', 'Search text is required'],
      ['q=x&limit=50', 'limit must be a whole number from 1 to 20'],
      [`q=${'x'.repeat(201)}`, 'Search text must be at most 200 characters'],
    ]) {
      const res = await agent.get(`/api/search?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message).toBe(message);
    }
  });
});
