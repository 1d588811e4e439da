import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTimestamp } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import { insertRecordRow } from '@services/records/writes.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

describe('record rules', () => {
  let t: TestApp;
  let agent: Agent;
  const stamp = () => encodeTimestamp(t.clock.now());
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_SITE_URL: 'https://www.example.org/' } });
    agent = (await t.signedInAgent()).agent;
  });
  afterAll(async () => t.close());

  /** An event as the WordPress sync writes it: a row with a wordpress id, written past the records API. */
  async function syncedEvent(values: Record<string, unknown>): Promise<number> {
    return withTransaction({ db: t.database.db }, (trx) =>
      insertRecordRow(trx, 'event', { featuredRace: 0, totalAdvertisingSpend: '0', createdAt: stamp(), updatedAt: stamp(), ...values }),
    );
  }

  describe('events', () => {
    let ids: Record<string, number>;
    beforeAll(async () => {
      ids = {
        marathon: (
          await agent
            .post('/api/events')
            .send({ eventName: 'Ballarat Marathon', featuredRace: true, eventStartDate: '2026-03-01', locationState: 'VIC' })
        ).body.id,
        fun: (
          await agent
            .post('/api/events')
            .send({ eventName: 'Albury Fun Run', eventStartDate: '2026-05-01', locationAddress: '9 Dean St, Albury' })
        ).body.id,
        undated: (await agent.post('/api/events').send({ eventName: 'Cairns Night Run', locationState: 'QLD' })).body.id,
        synced: await syncedEvent({ eventName: 'Darwin Dash', wordpressEventId: 4242, locationState: 'NT' }),
      };
    });

    it('filters featured and regular, with matching totals, with and without a search', async () => {
      const featured = await agent.get('/api/events?filter=featured');
      expect(featured.body.items.map((e: { id: number }) => e.id)).toEqual([ids.marathon]);
      expect(featured.body.total).toBe(1);
      const regular = await agent.get('/api/events?filter=regular');
      expect(regular.body.total).toBe(3);
      expect(regular.body.items.every((e: { featuredRace: boolean }) => !e.featuredRace)).toBe(true);
      expect((await agent.get('/api/events?filter=all')).body.total).toBe(4);
      expect((await agent.get('/api/events?filter=regular&q=run')).body.items.map((e: { id: number }) => e.id)).toEqual([
        ids.undated,
        ids.fun,
      ]);
      expect((await agent.get('/api/events?filter=featured&q=run')).body).toEqual({ items: [], total: 0, next: null, prev: null });
    });

    it('answers each first page by its own filter, order, limit and offset, with rows written since', async () => {
      type Page = { items: Array<{ id: number; featuredRace: boolean }>; total: number };
      const pageOf = async (query: string) => (await agent.get(`/api/events?${query}`)).body as Page;
      /** What the page must hold: its filter's rows, in its order, as many as its limit and offset leave. */
      const expectPage = (query: string, page: Page) => {
        const params = new URLSearchParams(query);
        const limit = Number(params.get('limit') ?? 24);
        const offset = Number(params.get('offset') ?? 0);
        expect(page.items, query).toHaveLength(Math.max(0, Math.min(limit, page.total - offset)));
        const ids = page.items.map((e) => e.id);
        expect(ids, query).toEqual([...ids].sort((a, b) => (params.get('dir') === 'asc' ? a - b : b - a)));
        const filter = params.get('filter');
        if (filter)
          expect(
            page.items.every((e) => e.featuredRace === (filter === 'featured')),
            query,
          ).toBe(true);
      };
      // Smaller pages first, then larger ones of the same filters: a statement kept for one page never answers another.
      const queries = ['limit=1', 'filter=regular&limit=1', 'limit=2&offset=1', '', 'filter=featured', 'filter=regular', 'dir=asc'];
      const before = new Map<string, Page>();
      for (const query of queries) {
        const page = await pageOf(query);
        expectPage(query, page);
        before.set(query, page);
      }
      const idsOf = (page: Page | undefined) => page!.items.map((e) => e.id);
      const added = (await agent.post('/api/events').send({ eventName: 'Echuca Evening Run', featuredRace: true })).body.id as number;
      try {
        for (const query of [...queries].reverse()) expectPage(query, await pageOf(query));
        expect(idsOf(await pageOf(''))).toEqual([added, ...idsOf(before.get(''))]);
        expect(idsOf(await pageOf('filter=featured'))).toEqual([added, ...idsOf(before.get('filter=featured'))]);
        expect(idsOf(await pageOf('filter=regular'))).toEqual(idsOf(before.get('filter=regular')));
        expect(idsOf(await pageOf('dir=asc'))).toEqual([...idsOf(before.get('dir=asc')), added]);
      } finally {
        expect((await agent.delete(`/api/events/${added}`)).status).toBe(204);
      }
    });

    it('searches name, state, address and wordpress id', async () => {
      const found = async (q: string) => (await agent.get('/api/events').query({ q })).body.items.map((e: { id: number }) => e.id);
      expect(await found('ballarat')).toEqual([ids.marathon]);
      expect(await found('qld')).toEqual([ids.undated]);
      expect(await found('DEAN ST')).toEqual([ids.fun]);
      expect(await found('424')).toEqual([ids.synced]);
      expect(await found('nt')).toContain(ids.synced);
    });

    it('sorts, limits and offsets', async () => {
      const names = async (query: string) =>
        (await agent.get(`/api/events?${query}`)).body.items.map((e: { eventName: string }) => e.eventName);
      expect(await names('sort=eventName')).toEqual(['Albury Fun Run', 'Ballarat Marathon', 'Cairns Night Run', 'Darwin Dash']);
      // Latest start first; undated events last, newest of them first.
      expect(await names('sort=eventStartDate&dir=desc')).toEqual([
        'Albury Fun Run',
        'Ballarat Marathon',
        'Darwin Dash',
        'Cairns Night Run',
      ]);
      expect(await names('sort=newest&limit=2&offset=1')).toEqual(['Cairns Night Run', 'Albury Fun Run']);
      const page = await agent.get('/api/events?limit=1&offset=3');
      expect(page.body.total).toBe(4);
      expect(page.body.items).toHaveLength(1);
      // A page past the end still carries the total (with and without a filter).
      expect((await agent.get('/api/events?offset=50')).body).toEqual({ items: [], total: 4, next: null, prev: null });
      expect((await agent.get('/api/events?offset=50&filter=regular')).body).toEqual({ items: [], total: 3, next: null, prev: null });
    });

    it('answers 400 for bad list parameters', async () => {
      for (const query of [
        'limit=0',
        'limit=101',
        'limit=abc',
        'offset=-1',
        'offset=1.5',
        'sort=bogus',
        'filter=gold',
        'q=a&q=b',
        `q=${'x'.repeat(201)}`,
        'limit=1e2',
      ]) {
        const res = await agent.get(`/api/events?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.code).toBe('validation_failed');
      }
      expect((await agent.get('/api/events?unknown=1')).status).toBe(200);
    });

    it('includes the event distances in the detail', async () => {
      await t.database.db('event_distances').insert([
        { eventId: ids.marathon, distanceKm: '42.20', entryFee: '120.00', prizes: '["medal"]', createdAt: stamp() },
        { eventId: ids.marathon, distanceKm: '10.00', createdAt: stamp() },
      ]);
      const detail = await agent.get(`/api/events/${ids.marathon}`);
      expect(detail.body.distances.map((d: { distanceKm: string }) => d.distanceKm)).toEqual(['10.00', '42.20']);
      expect(detail.body.distances[1]).toMatchObject({ entryFee: '120.00', prizes: ['medal'], eventId: ids.marathon });
      expect((await agent.get(`/api/events/${ids.fun}`)).body.distances).toEqual([]);
      expect((await agent.get('/api/events')).body.items[0]).not.toHaveProperty('distances');
      // Deleting the event removes its distances with it.
      expect((await agent.delete(`/api/events/${ids.marathon}`)).status).toBe(204);
      expect(await t.database.db('event_distances').where({ eventId: ids.marathon }).count({ n: '*' }).first()).toMatchObject({ n: 0 });
    });

    it('builds the public page URL from the setting and the wordpress id, with clear 4xx otherwise', async () => {
      const ok = await agent.get(`/api/events/${ids.synced}/wordpress-url`);
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ wordpressUrl: 'https://www.example.org/?p=4242' });
      const unsynced = await agent.get(`/api/events/${ids.fun}/wordpress-url`);
      expect(unsynced.status).toBe(409);
      expect(unsynced.body.message).toBe('This event is not synced with the content website (it has no wordpress id)');
      expect((await agent.get('/api/events/999999/wordpress-url')).body).toEqual({ message: 'Event not found', code: 'not_found' });
      expect((await agent.get('/api/events/x/wordpress-url')).status).toBe(400);
      const site = t.config.wordpress.publicSiteUrl;
      t.config.wordpress.publicSiteUrl = undefined;
      try {
        const missing = await agent.get(`/api/events/${ids.synced}/wordpress-url`);
        expect(missing.status).toBe(409);
        expect(missing.body.message).toBe('The public site address is not configured (set PUBLIC_SITE_URL)');
      } finally {
        t.config.wordpress.publicSiteUrl = site;
      }
    });

    it('PUT keeps what the sync owns (wordpress id, last sync, gallery) and refuses it from the client', async () => {
      await t.database.db('events').where({ id: ids.synced }).update({ galleryImages: '["a.jpg"]', wordpressLastSync: stamp() });
      const res = await agent.put(`/api/events/${ids.synced}`).send({ eventName: 'Darwin Dash 2027' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        wordpressEventId: 4242,
        galleryImages: ['a.jpg'],
        wordpressLastSync: t.clock.now().toISOString(),
        locationState: null,
      });
      expect((await agent.put(`/api/events/${ids.synced}`).send({ eventName: 'X', wordpressEventId: 1 })).status).toBe(400);
    });
  });

  describe('professionals', () => {
    it('are created unpublished: a wordpress id from the client is refused on create and update', async () => {
      const refused = await agent.post('/api/professionals').send({ businessName: 'Sneaky', wordpressProfessionalId: 77 });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('Unknown field(s): wordpressProfessionalId');
      const created = await agent.post('/api/professionals').send({ businessName: 'Draft Physio' });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        wordpressProfessionalId: null,
        subscriptionStatus: 'active',
        specializations: [],
        totalPayments: '0.00',
      });
      expect(
        (await agent.put(`/api/professionals/${created.body.id}`).send({ businessName: 'Draft Physio', wordpressProfessionalId: 5 }))
          .status,
      ).toBe(400);
      expect(await t.database.db('professionals').where({ id: created.body.id }).first()).toMatchObject({ wordpressProfessionalId: null });
      expect((await agent.delete(`/api/professionals/${created.body.id}`)).status).toBe(204);
    });

    it('cannot be deleted once published (409), and stay intact', async () => {
      const id = await withTransaction({ db: t.database.db }, (trx) =>
        insertRecordRow(trx, 'professional', {
          businessName: 'Published Coach',
          wordpressProfessionalId: 901,
          subscriptionStatus: 'active',
          totalPayments: '0',
          paymentAlertFlag: 0,
          createdAt: stamp(),
          updatedAt: stamp(),
        }),
      );
      const res = await agent.delete(`/api/professionals/${id}`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        code: 'conflict',
        message: 'This professional is published on the content website (it has a wordpress id) and cannot be deleted here',
      });
      expect((await agent.get(`/api/professionals/${id}`)).status).toBe(200);
      expect((await agent.get('/api/professionals?q=published')).body.total).toBe(1);
      // Editing keeps it published.
      const edited = await agent
        .put(`/api/professionals/${id}`)
        .send({ businessName: 'Published Coach', professionType: 'coach', credentials: ['AthAus L2'] });
      expect(edited.body).toMatchObject({ wordpressProfessionalId: 901, credentials: ['AthAus L2'], professionType: 'coach' });
    });

    it('validate the enums', async () => {
      for (const body of [{ professionType: 'wizard' }, { subscriptionStatus: 'lapsed' }, { locationState: 'XYZ' }]) {
        const res = await agent.post('/api/professionals').send({ businessName: 'Enum Check', ...body });
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      const res = await agent
        .post('/api/professionals')
        .send({ businessName: 'Empty Enums', professionType: '', locationState: '', subscriptionStatus: '' });
      expect(res.body).toMatchObject({ professionType: null, locationState: null, subscriptionStatus: 'active' });
    });
  });

  describe('run clubs', () => {
    it('store the screen fields under one name each, and membershipCount is a whole number or null', async () => {
      const created = await agent.post('/api/runclubs').send({
        clubName: 'Harbour Harriers',
        clubType: ['road', 'social'],
        foundedYear: 1998,
        membershipCount: '',
        meetingTimes: ['Tue 6pm', 'Sat 7am'],
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        foundedYear: 1998,
        membershipCount: null,
        meetingTimes: ['Tue 6pm', 'Sat 7am'],
        clubType: ['road', 'social'],
        wordpressClubId: null,
        schedules: [],
      });
      const id = created.body.id;
      expect(
        (await agent.put(`/api/runclubs/${id}`).send({ clubName: 'Harbour Harriers', membershipCount: '120' })).body.membershipCount,
      ).toBe(120);
      const fraction = await agent.put(`/api/runclubs/${id}`).send({ clubName: 'Harbour Harriers', membershipCount: 1.5 });
      expect(fraction.status).toBe(400);
      expect(fraction.body.message).toBe('Membership count must be a whole number');
      expect((await agent.put(`/api/runclubs/${id}`).send({ clubName: 'Harbour Harriers', clubType: ['parkour'] })).status).toBe(400);
      expect((await agent.put(`/api/runclubs/${id}`).send({ clubName: '' })).body.message).toBe('Club name is required');
    });

    it('filter by type and show their schedules', async () => {
      const trail = (await agent.post('/api/runclubs').send({ clubName: 'Mud Goats', clubType: ['trail'] })).body.id;
      await agent.post('/api/runclubs').send({ clubName: 'Tar Gazers', clubType: ['road', 'social'] });
      await t.database
        .db('run_club_schedules')
        .insert({ clubId: trail, title: 'Hills', dayOfWeek: 'Saturday', isRecurring: 1, createdAt: stamp() });
      const detail = await agent.get(`/api/runclubs/${trail}`);
      expect(detail.body.schedules).toMatchObject([{ title: 'Hills', dayOfWeek: 'Saturday', isRecurring: true, clubId: trail }]);
      const list = await agent.get('/api/runclubs?type=trail');
      expect(list.body).toMatchObject({ total: 1, items: [{ id: trail }] });
      // The PUTs above replaced Harbour Harriers' clubType with an empty list (whole-form update).
      expect((await agent.get('/api/runclubs?type=road')).body.items.map((c: { clubName: string }) => c.clubName)).toEqual(['Tar Gazers']);
      expect((await agent.get('/api/runclubs?type=social')).status).toBe(400);
      expect((await agent.delete(`/api/runclubs/${trail}`)).status).toBe(204);
      expect(await t.database.db('run_club_schedules').where({ clubId: trail }).count({ n: '*' }).first()).toMatchObject({ n: 0 });
      expect((await agent.get('/api/runclubs?type=trail')).body.total).toBe(0);
    });
  });

  describe('influencers', () => {
    it('default the type, strip a leading @ and search full name, handle and type', async () => {
      const created = await agent
        .post('/api/influencers')
        .send({ firstName: 'Mia', lastName: 'Stone', instagramHandle: '@mia.runs', tiktokHandle: '@@mia' });
      expect(created.body).toMatchObject({ influencerType: 'influencer', instagramHandle: 'mia.runs', tiktokHandle: 'mia' });
      const both = (await agent.post('/api/influencers').send({ firstName: 'Leo', lastName: 'Park', influencerType: 'both' })).body.id;
      const ids = async (q: string) => (await agent.get('/api/influencers').query({ q })).body.items.map((i: { id: number }) => i.id);
      expect(await ids('mia sto')).toEqual([created.body.id]);
      expect(await ids('A.RUNS')).toEqual([created.body.id]);
      expect(await ids('both')).toEqual([both]);
      expect((await agent.post('/api/influencers').send({ firstName: 'No', lastName: '' })).body.message).toBe('Last name is required');
      expect((await agent.post('/api/influencers').send({ firstName: 'No', lastName: 'Type', influencerType: 'celebrity' })).status).toBe(
        400,
      );
    });
  });

  describe('bad input', () => {
    it('round-trips 4-byte emoji and finds them', async () => {
      const name = 'Run 🏃‍♀️ Club 😀𝒳';
      const created = await agent.post('/api/brands').send({ brandName: name, notes: '✓ 𝄞 \u2028 end' });
      expect(created.status).toBe(201);
      const read = await agent.get(`/api/brands/${created.body.id}`);
      expect(read.body.brandName).toBe(name);
      expect(read.body.notes).toBe('✓ 𝄞 \u2028 end');
      expect((await agent.get('/api/brands').query({ q: '😀𝒳' })).body.items.map((b: { id: number }) => b.id)).toEqual([created.body.id]);
    });

    it('refuses over-long values with 400 instead of truncating', async () => {
      const cases: Array<[string, Record<string, unknown>]> = [
        ['/api/brands', { brandName: 'x'.repeat(256) }],
        ['/api/brands', { brandName: 'ok', industryCategory: '😀'.repeat(256) }],
        ['/api/media', { mediaName: 'ok', notes: 'x'.repeat(10_001) }],
        ['/api/influencers', { firstName: 'x'.repeat(101), lastName: 'y' }],
        ['/api/events', { eventName: 'ok', websiteUrl: `https://e.org/${'x'.repeat(2048)}` }],
        ['/api/runclubs', { clubName: 'ok', meetingTimes: Array.from({ length: 101 }, () => 'x') }],
      ];
      for (const [path, body] of cases) {
        const res = await agent.post(path).send(body);
        expect(res.status, `${path} ${Object.keys(body).join()}`).toBe(400);
      }
      const longest = await agent.post('/api/brands').send({ brandName: '😀'.repeat(255) });
      expect(longest.status).toBe(201);
      expect((await agent.get(`/api/brands/${longest.body.id}`)).body.brandName).toBe('😀'.repeat(255));
    });

    it('refuses wrong types, impossible dates, bad money and coordinates', async () => {
      const bodies: Array<Record<string, unknown>> = [
        { eventName: 'x', eventStartDate: '2026-02-30' },
        { eventName: 'x', eventStartDate: '0999-01-01' },
        { eventName: 'x', eventStartDate: '21/11/2026' },
        // The advertising total is the sum of the event's payments, never set through the form.
        { eventName: 'x', totalAdvertisingSpend: '12.00' },
        { eventName: 'x', locationLat: '91' },
        { eventName: 'x', locationLng: '-180.123456789' },
        { eventName: 'x', featuredRace: 'yes' },
        { eventName: 'x', runType: 'road' },
        { eventName: 'x', runType: [1, 2] },
        { eventName: 123 },
        { eventName: { toString: 'x' } },
      ];
      for (const body of bodies) expect((await agent.post('/api/events').send(body)).status, JSON.stringify(body)).toBe(400);
      const fine = await agent
        .post('/api/events')
        .send({ eventName: 'Money', locationLat: '-33.86881234', locationLng: '151.20930000', eventStartDate: '2028-02-29' });
      expect(fine.body).toMatchObject({
        totalAdvertisingSpend: '0.00',
        locationLat: '-33.86881234',
        locationLng: '151.20930000',
        eventStartDate: '2028-02-29',
      });
    });

    it('refuses a lone surrogate (not text; the databases would store different replacements) and NUL', async () => {
      for (const raw of [
        '{"brandName":"\\ud800abc"}',
        '{"brandName":"ok","notes":"x\\udc00"}',
        '{"mediaName":"ok","industry":"\\ud83d"}',
        '{"brandName":"nul\\u0000byte"}',
      ]) {
        const res = await agent
          .post(raw.includes('media') ? '/api/media' : '/api/brands')
          .set('Content-Type', 'application/json')
          .send(raw);
        expect(res.status, raw).toBe(400);
        expect(res.body.message).toBe('Contains an invalid character');
      }
    });

    it('refuses prototype-polluting keys and leaves Object.prototype alone', async () => {
      for (const raw of [
        '{"brandName":"p","__proto__":{"polluted":1}}',
        '{"brandName":"p","constructor":{"prototype":{"polluted":1}}}',
        '{"__proto__":{"brandName":"p"}}',
      ]) {
        const res = await agent.post('/api/brands').set('Content-Type', 'application/json').send(raw);
        expect(res.status, raw).toBe(400);
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect((await agent.get('/api/brands?__proto__[x]=1&constructor=1')).status).toBe(200);
      expect((await agent.get('/api/brands?__proto__=a&__proto__=b&q=zz')).status).toBe(200);
      expect((await agent.get('/api/brands?q=a&q=b')).status).toBe(400);
    });

    it('never answers 5xx to arbitrary JSON bodies', async () => {
      const value = fc.oneof(
        fc.string(),
        fc.integer(),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.string(), { maxLength: 3 }),
        fc.object({ maxDepth: 1 }),
      );
      const body = fc.dictionary(fc.constantFrom('mediaName', 'industry', 'websiteUrl', 'notes', 'other'), value, { maxKeys: 5 });
      await fc.assert(
        fc.asyncProperty(body, async (input) => {
          const res = await agent.post('/api/media').send(input);
          expect([201, 400]).toContain(res.status);
        }),
        { numRuns: t.database.dialect === 'mysql' ? 40 : 100 },
      );
    });
  });
});

describe('concurrent writers', () => {
  let t: TestApp;
  let agent: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    agent = (await t.signedInAgent()).agent;
  });
  afterAll(async () => t.close());

  it('keeps counts and search right when many writes overlap, and never answers 5xx', async () => {
    const created = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        agent.post('/api/brands').send({ brandName: `Parallel Brand ${i}`, industryCategory: 'Shared Words' }),
      ),
    );
    expect(created.map((res) => res.status)).toEqual(Array(16).fill(201));
    const ids = created.map((res) => res.body.id as number);
    const updates = await Promise.all(
      ids.map((id, i) =>
        agent.put(`/api/brands/${id}`).send({ brandName: `Parallel Brand ${i} Renamed`, industryCategory: 'Shared Words' }),
      ),
    );
    expect(updates.map((res) => res.status)).toEqual(Array(16).fill(200));
    const deletes = await Promise.all(ids.slice(0, 8).map((id) => agent.delete(`/api/brands/${id}`)));
    expect(deletes.map((res) => res.status)).toEqual(Array(8).fill(204));
    expect((await agent.get('/api/stats')).body.brands).toBe(8);
    const found = await agent.get('/api/brands?q=renamed&limit=100');
    expect(found.body.total).toBe(8);
    expect(found.body.items.map((b: { id: number }) => b.id).sort((a: number, b: number) => a - b)).toEqual(
      ids.slice(8).sort((a, b) => a - b),
    );
  });
});
