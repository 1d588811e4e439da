import { randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTimestamp } from '@db/codecs.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { RECORD_TYPE_INFO, type RecordType } from '@shared/record-types.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

/** A valid form per type, the name field with its required message, a second field the search covers (table and stats key come from the vocabulary). */
const cases: Array<{
  kind: RecordType;
  body: Record<string, unknown>;
  nameField: string;
  nameMessage: string;
  optionalField: string;
  notFound: string;
  searchTerm: string;
}> = [
  {
    kind: 'event',
    body: { eventName: 'Harbour Bridge Marathon', locationState: 'NSW', locationAddress: '1 Circular Quay, Sydney', featuredRace: true },
    nameField: 'eventName',
    nameMessage: 'Event name is required',
    optionalField: 'locationAddress',
    notFound: 'Event not found',
    searchTerm: 'circular QUAY',
  },
  {
    kind: 'professional',
    body: { businessName: 'Stride Physio', professionType: 'physiotherapist', locationState: 'VIC', specializations: ['knees'] },
    nameField: 'businessName',
    nameMessage: 'Business name is required',
    optionalField: 'professionType',
    notFound: 'Professional not found',
    searchTerm: 'PHYSIOTHERAP',
  },
  {
    kind: 'runclub',
    body: { clubName: 'Trail Blazers', locationState: 'QLD', clubType: ['trail'], membershipCount: 40, meetingTimes: ['Sat 6am'] },
    nameField: 'clubName',
    nameMessage: 'Club name is required',
    optionalField: 'locationState',
    notFound: 'Run Club not found',
    searchTerm: 'blazer',
  },
  {
    kind: 'brand',
    body: { brandName: 'Fleetfoot Shoes', industryCategory: 'Footwear', lastCampaignEndDate: '2026-10-31' },
    nameField: 'brandName',
    nameMessage: 'Brand name is required',
    optionalField: 'industryCategory',
    notFound: 'Brand not found',
    searchTerm: 'footw',
  },
  {
    kind: 'media',
    body: { mediaName: 'Runners Weekly', industry: 'Magazine' },
    nameField: 'mediaName',
    nameMessage: 'Media name is required',
    optionalField: 'industry',
    notFound: 'Media outlet not found',
    searchTerm: 'magaz',
  },
  {
    kind: 'influencer',
    body: { firstName: 'Jane', lastName: 'Doe', influencerType: 'pro', instagramHandle: '@janeruns' },
    nameField: 'firstName',
    nameMessage: 'First name is required',
    optionalField: 'instagramHandle',
    notFound: 'Influencer not found',
    searchTerm: 'JANERUN',
  },
];

describe('record CRUD API', () => {
  let t: TestApp;
  let agent: Agent;
  let userId: number;
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_SITE_URL: 'https://www.example.org/' } });
    const signedIn = await t.signedInAgent();
    agent = signedIn.agent;
    userId = signedIn.user.id;
  });
  afterAll(async () => t.close());

  it('refuses every record endpoint without a session', async () => {
    const anonymous = t.agent();
    expect((await anonymous.get('/api/events')).status).toBe(401);
    expect((await anonymous.get('/api/stats')).status).toBe(401);
    expect((await anonymous.post('/api/brands').send({ brandName: 'X' })).status).toBe(401);
    expect(await t.database.db('brands').count({ n: '*' }).first()).toMatchObject({ n: 0 });
  });

  describe.each(cases)('$kind', (c) => {
    const base = RECORD_TYPE_INFO[c.kind].apiPath;
    let id: number;

    it('creates (201) with createdBy and timestamps, and counts it', async () => {
      const before = (await agent.get('/api/stats')).body[RECORD_TYPE_INFO[c.kind].statsKey] as number;
      const res = await agent.post(base).send(c.body);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        [c.nameField]: c.body[c.nameField],
        createdBy: userId,
        createdAt: t.clock.now().toISOString(),
        updatedAt: t.clock.now().toISOString(),
      });
      id = res.body.id;
      expect((await agent.get('/api/stats')).body[RECORD_TYPE_INFO[c.kind].statsKey]).toBe(before + 1);
    });

    it('gets one, and answers 404 with the spec text for an unknown id, 400 for a malformed one', async () => {
      const res = await agent.get(`${base}/${id}`);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(id);
      for (const missing of ['999999', '0', '99999999999']) {
        const notFound = await agent.get(`${base}/${missing}`);
        expect(notFound.status).toBe(404);
        expect(notFound.body).toEqual({ message: c.notFound, code: 'not_found' });
      }
      for (const bad of ['abc', '1.5', '-1', '1e3', '%20']) {
        const res400 = await agent.get(`${base}/${bad}`);
        expect(res400.status).toBe(400);
        expect(res400.body.code).toBe('bad_request');
      }
      expect((await agent.put(`${base}/abc`).send(c.body)).status).toBe(400);
      expect((await agent.delete(`${base}/0`)).status).toBe(404);
    });

    it('lists and finds it by a case-insensitive substring of a search field', async () => {
      const list = await agent.get(base);
      expect(list.status).toBe(200);
      expect(list.body.total).toBeGreaterThanOrEqual(1);
      expect(list.body.items.map((item: { id: number }) => item.id)).toContain(id);
      const found = await agent.get(base).query({ q: c.searchTerm });
      expect(found.body.items.map((item: { id: number }) => item.id)).toEqual([id]);
      expect(found.body.total).toBe(1);
      const none = await agent.get(base).query({ q: 'zzqx-nothing' });
      expect(none.body).toEqual({ items: [], total: 0, next: null, prev: null });
    });

    it('rejects a missing name with the spec message, unknown fields, and wrong types (400, nothing written)', async () => {
      const before = await t.database.db(RECORD_TYPE_INFO[c.kind].table).count({ n: '*' }).first();
      const { [c.nameField]: _name, ...withoutName } = c.body;
      const missing = await agent.post(base).send(withoutName);
      expect(missing.status).toBe(400);
      expect(missing.body.message).toBe(c.nameMessage);
      expect(missing.body.issues).toContainEqual({ path: c.nameField, message: c.nameMessage });
      const blank = await agent.post(base).send({ ...c.body, [c.nameField]: '   ' });
      expect(blank.body.message).toBe(c.nameMessage);
      const unknown = await agent.post(base).send({ ...c.body, id: 5, createdBy: 1, surprise: true });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toMatch(/Unknown field\(s\): .*surprise/);
      for (const body of [
        [c.body],
        'text',
        42,
        null,
        { ...c.body, [c.nameField]: ['a'] },
        { ...c.body, [c.nameField]: { $gt: '' } },
        { ...c.body, [c.nameField]: 'x'.repeat(256) },
      ]) {
        const res = await agent.post(base).set('Content-Type', 'application/json').send(JSON.stringify(body));
        expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      }
      expect(await t.database.db(RECORD_TYPE_INFO[c.kind].table).count({ n: '*' }).first()).toEqual(before);
    });

    it('PUT replaces the whole form: an omitted field becomes empty; updatedAt moves, createdBy stays', async () => {
      t.clock.advance(60_000);
      const { [c.optionalField]: _dropped, ...rest } = c.body;
      const res = await agent.put(`${base}/${id}`).send({ ...rest, [c.nameField]: `${c.body[c.nameField]} Renamed` });
      expect(res.status).toBe(200);
      expect(res.body[c.nameField]).toBe(`${c.body[c.nameField]} Renamed`);
      expect(res.body[c.optionalField]).toBeNull();
      expect(res.body.updatedAt).toBe(t.clock.now().toISOString());
      expect(res.body.createdBy).toBe(userId);
      expect(res.body.createdAt).not.toBe(res.body.updatedAt);
      // The search follows the new text.
      expect((await agent.get(base).query({ q: 'renamed' })).body.items.map((i: { id: number }) => i.id)).toContain(id);
      expect((await agent.put(`${base}/987654`).send(c.body)).body).toEqual({ message: c.notFound, code: 'not_found' });
      expect((await agent.put(`${base}/${id}`).send({ ...c.body, [c.nameField]: '' })).body.message).toBe(c.nameMessage);
    });

    it('deletes (204) with what the record owns, in one go, and leaves the counts right', async () => {
      const db = t.database.db;
      const now = encodeTimestamp(t.clock.now());
      const owner = { entityType: c.kind, entityId: id };
      const otherOwner = { entityType: c.kind, entityId: id + 1000 };
      const key = `${randomUUID()}.png`;
      writeFileSync(path.join(t.uploadDir, key), 'bytes');
      await db('contacts').insert([
        { firstName: 'A', lastName: 'B', ...owner, isPrimary: 0, mailchimpTags: '[]', createdAt: now, updatedAt: now },
        { firstName: 'C', lastName: 'D', ...otherOwner, isPrimary: 0, mailchimpTags: '[]', createdAt: now, updatedAt: now },
      ]);
      await db('payments').insert({
        ...owner,
        description: 'Ad',
        amount: '10.00',
        invoiceStatus: 'pending',
        createdAt: now,
        updatedAt: now,
      });
      await db('files').insert({ ...owner, fileName: key, originalName: 'a.png', filePath: key, uploadedAt: now });
      const before = (await agent.get('/api/stats')).body[RECORD_TYPE_INFO[c.kind].statsKey] as number;

      const res = await agent.delete(`${base}/${id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await agent.get(`${base}/${id}`)).status).toBe(404);
      expect(await db('contacts').where(owner).count({ n: '*' }).first()).toMatchObject({ n: 0 });
      expect(await db('payments').where(owner).count({ n: '*' }).first()).toMatchObject({ n: 0 });
      expect(await db('files').where(owner).count({ n: '*' }).first()).toMatchObject({ n: 0 });
      expect(await db('contacts').where(otherOwner).count({ n: '*' }).first()).toMatchObject({ n: 1 });
      // The bytes stay for Recently deleted until `pacer trash purge` removes the entry.
      expect(existsSync(path.join(t.uploadDir, key))).toBe(true);
      expect((await agent.get('/api/stats')).body[RECORD_TYPE_INFO[c.kind].statsKey]).toBe(before - 1);
      expect((await agent.get(base).query({ q: c.searchTerm })).body).toEqual({ items: [], total: 0, next: null, prev: null });
      expect((await agent.delete(`${base}/${id}`)).body).toEqual({ message: c.notFound, code: 'not_found' });
    });
  });

  it('GET /api/stats answers the six counts', async () => {
    const res = await agent.get('/api/stats');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['brands', 'events', 'influencers', 'media', 'professionals', 'runClubs']);
    const events = await t.database.db('events').count({ n: '*' }).first();
    expect(res.body.events).toBe(Number((events as { n: number }).n));
  });
});
