import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    expect(byType.influencer).toMatchObject({ total: 1, items: [{ title: 'Hana Harbourside', subtitle: '@hana · influencer' }] });
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
