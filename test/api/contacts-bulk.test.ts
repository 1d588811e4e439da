import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '@shared/history.js';
import { FakeMailchimp } from '../fakes/mailchimp.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { failDeleteOf } from '../helpers/failing-delete.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

/** The contacts directory's bulk actions: delete, tags and "Add to Mailchimp audience" (the real fake Mailchimp server). */
describe('contacts bulk actions', () => {
  let mc: FakeMailchimp;
  let t: TestApp;
  let bare: TestApp;
  let agent: Agent;
  let brandId: number;

  beforeAll(async () => {
    mc = await new FakeMailchimp().start();
    mc.addAudience('Runners Weekly', 'runners1');
    t = await createTestApp({ env: { ...mc.env, HTTP_TIMEOUT_MS: '3000' } });
    bare = await createTestApp();
    agent = (await t.signedInAgent()).agent;
    brandId = (await agent.post('/api/brands').send({ brandName: 'Stride Shoes' })).body.id as number;
  });
  afterAll(async () => {
    await t.close();
    await bare.close();
    await mc.close();
  });
  beforeEach(() => {
    mc.requests = [];
  });

  const contact = async (firstName: string, fields: Record<string, unknown> = {}) => {
    const res = await agent
      .post('/api/contacts')
      .send({ entityType: 'brand', entityId: brandId, firstName, lastName: 'Runner', ...fields });
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };
  const count = async () => Number(((await t.database.db('contacts').count({ n: '*' }).first()) as { n: number | string }).n);
  const historyOf = async (id: number) => (await agent.get(`/api/contacts/${id}/history`)).body.items as HistoryEntry[];

  describe('bulk delete', () => {
    it('deletes every named contact in one call, each with a history entry holding what it was', async () => {
      const a = await contact('Ann', { email: 'ann@stride.example', isPrimary: true });
      const b = await contact('Bob');
      const keep = await contact('Keep');
      const before = await count();
      const res = await agent.post('/api/contacts/bulk-delete').send({ ids: [a, String(b)] });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ deleted: 2 });
      expect(await count()).toBe(before - 2);
      expect((await agent.get(`/api/contacts/${a}`)).status).toBe(404);
      expect((await agent.get(`/api/contacts/${keep}`)).status).toBe(200);
      const [deleted] = await historyOf(a);
      expect(deleted).toMatchObject({ action: 'delete', changes: { firstName: 'Ann', email: 'ann@stride.example', isPrimary: true } });
      expect((await historyOf(b))[0]).toMatchObject({ action: 'delete', changes: { firstName: 'Bob' } });
      // The directory no longer lists them.
      expect((await agent.get('/api/contacts?q=ann')).body.total).toBe(0);
    });

    it('is all-or-nothing: an unknown id refuses the whole call, naming it, and deletes nothing', async () => {
      const a = await contact('Cat');
      const before = await count();
      const res = await agent.post('/api/contacts/bulk-delete').send({ ids: [a, 777_777, 777_778] });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Contact not found: 777777, 777778');
      expect(await count()).toBe(before);
      expect((await historyOf(a)).map((entry) => entry.action)).toEqual(['create']);
    });

    it('rolls back every delete of the call when the database fails part-way', async () => {
      const a = await contact('Rae');
      const b = await contact('Sol');
      const before = await count();
      const restore = await failDeleteOf(t.database.db, 'contacts', b);
      try {
        expect((await agent.post('/api/contacts/bulk-delete').send({ ids: [a, b] })).status).toBe(500);
      } finally {
        await restore();
      }
      expect(await count()).toBe(before);
      expect((await historyOf(a)).map((entry) => entry.action)).toEqual(['create']);
      expect((await agent.post('/api/contacts/bulk-delete').send({ ids: [a, b] })).body).toEqual({ deleted: 2 });
    });

    it('takes at most 1,000 ids and refuses malformed lists with a 400', async () => {
      for (const [body, message] of [
        [{ ids: Array.from({ length: 1001 }, (_, i) => i + 1) }, 'At most 1000 ids a call'],
        [{ ids: [] }, 'ids must name at least one record'],
        [{ ids: ['x'] }, 'Each id must be a positive whole number'],
        [{ ids: [1], also: 2 }, 'Unknown field(s): also'],
      ] as const) {
        const res = await agent.post('/api/contacts/bulk-delete').send(body);
        expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
        expect(res.body.message).toBe(message);
      }
    });

    it('refuses a viewer and deletes nothing', async () => {
      const a = await contact('Dee');
      const { agent: viewer } = await t.signedInAgent('viewer@example.org', 'viewer');
      const res = await viewer.post('/api/contacts/bulk-delete').send({ ids: [a] });
      expect(res.status).toBe(403);
      expect((await agent.get(`/api/contacts/${a}`)).status).toBe(200);
    });
  });

  describe('bulk tags', () => {
    it('writes one history entry per changed contact, none for an unchanged one', async () => {
      const a = await contact('Eve', { mailchimpTags: ['vip'] });
      const b = await contact('Fay', { mailchimpTags: ['partner'] });
      const res = await agent.post('/api/contacts/bulk-tags').send({ ids: [a, b], add: ['partner'], remove: ['VIP'] });
      expect(res.body).toEqual({ updated: 1 });
      expect((await historyOf(a))[0]).toMatchObject({
        action: 'update',
        changes: { mailchimpTags: { from: ['vip'], to: ['partner'] } },
      });
      expect((await historyOf(b)).map((entry) => entry.action)).toEqual(['create']);
    });

    it('refuses a viewer and changes nothing', async () => {
      const a = await contact('Gil', { mailchimpTags: ['vip'] });
      const { agent: viewer } = await t.signedInAgent('viewer@example.org', 'viewer');
      expect((await viewer.post('/api/contacts/bulk-tags').send({ ids: [a], remove: ['vip'] })).status).toBe(403);
      expect((await agent.get(`/api/contacts/${a}`)).body.mailchimpTags).toEqual(['vip']);
    });
  });

  describe('add to a Mailchimp audience', () => {
    it('adds new addresses, updates known ones, never re-subscribes the unsubscribed, and names each failure', async () => {
      mc.addMember('runners1', { email_address: 'known@stride.example', status: 'subscribed', merge_fields: { FNAME: 'Old' } });
      mc.addMember('runners1', { email_address: 'gone@stride.example', status: 'unsubscribed' });
      const fresh = await contact('Hal', { email: 'hal@stride.example', mailchimpTags: ['vip'], phone: '0400 000 001' });
      const known = await contact('Ida', { email: 'Known@stride.example' });
      const gone = await contact('Jo', { email: 'gone@stride.example' });
      const noEmail = await contact('Kit');
      const broken = await contact('Lou', { email: 'lou@stride.example' });
      // An address our form would refuse, as an old import may have left one: Mailchimp refuses it.
      await t.database.db('contacts').where({ id: broken }).update({ email: 'lou@localhost' });
      // Two contacts sharing an address are one member.
      const sameAsFresh = await contact('Hal2', { email: 'HAL@stride.example', mailchimpTags: ['partner'] });

      const res = await agent
        .post('/api/contacts/bulk-mailchimp')
        .send({ ids: [fresh, known, gone, noEmail, broken, sameAsFresh], audienceId: 'runners1' });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        added: 2,
        updated: 1,
        skipped: 2,
        failed: [
          {
            id: broken,
            email: 'lou@localhost',
            message: 'Mailchimp: Invalid Resource: email_address: This value should be a valid email.',
          },
        ],
      });
      expect(mc.member('runners1', 'hal@stride.example')).toMatchObject({
        status: 'subscribed',
        merge_fields: { FNAME: 'Hal', LNAME: 'Runner', PHONE: '0400 000 001' },
        tags: ['vip', 'partner'],
      });
      expect(mc.member('runners1', 'known@stride.example')).toMatchObject({ status: 'subscribed', merge_fields: { FNAME: 'Ida' } });
      expect(mc.member('runners1', 'gone@stride.example')!.status).toBe('unsubscribed');
      // The member's status was read first, and the upsert never sends a status for an existing member.
      expect(mc.requests.filter((line) => line.startsWith('GET /3.0/lists/runners1/members/'))).toHaveLength(4);
    });

    it('refuses unknown ids and bad input before asking Mailchimp', async () => {
      const a = await contact('Max', { email: 'max@stride.example' });
      const unknown = await agent.post('/api/contacts/bulk-mailchimp').send({ ids: [a, 999_999], audienceId: 'runners1' });
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('Contact not found: 999999');
      for (const [body, message] of [
        [{ ids: Array.from({ length: 1001 }, (_, i) => i + 1), audienceId: 'runners1' }, 'At most 1000 ids a call'],
        [{ ids: [a] }, 'An audience id is required'],
        [{ ids: [a], audienceId: 'no/such' }, 'Not a valid audience id'],
      ] as const) {
        const res = await agent.post('/api/contacts/bulk-mailchimp').send(body);
        expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
        expect(res.body.message).toBe(message);
      }
      expect(mc.requests).toEqual([]);
      expect(mc.member('runners1', 'max@stride.example')).toBeUndefined();
    });

    it('answers 404 for an audience Mailchimp does not have, and 400 when Mailchimp is not configured', async () => {
      const a = await contact('Ned', { email: 'ned@stride.example' });
      const res = await agent.post('/api/contacts/bulk-mailchimp').send({ ids: [a], audienceId: 'nosuchlist' });
      expect(res.status).toBe(404);
      expect(res.body.message).toMatch(/^Mailchimp: Resource Not Found/);

      const { agent: other } = await bare.signedInAgent();
      const owner = (await other.post('/api/brands').send({ brandName: 'Elsewhere' })).body.id as number;
      const id = (
        await other
          .post('/api/contacts')
          .send({ entityType: 'brand', entityId: owner, firstName: 'O', lastName: 'P', email: 'o@p.example' })
      ).body.id as number;
      const unconfigured = await other.post('/api/contacts/bulk-mailchimp').send({ ids: [id], audienceId: 'runners1' });
      expect(unconfigured.status).toBe(400);
      expect(unconfigured.body.message).toMatch(/^The email-marketing service is not configured/);
    });

    it('refuses a viewer before asking Mailchimp', async () => {
      const a = await contact('Pia', { email: 'pia@stride.example' });
      const { agent: viewer } = await t.signedInAgent('viewer@example.org', 'viewer');
      const res = await viewer.post('/api/contacts/bulk-mailchimp').send({ ids: [a], audienceId: 'runners1' });
      expect(res.status).toBe(403);
      expect(mc.requests).toEqual([]);
    });
  });
  describe("the directory page's action (the same writes, run on the server)", () => {
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

    it('tags, adds to an audience and deletes the posted ids, then shows the same list again', async () => {
      const a = await contact('Quin', { email: 'quin@stride.example' });
      const b = await contact('Ros', { email: 'ros@stride.example' });
      const ids = `${a},${b}`;
      const tagged = await agent
        .post('/contacts?q=stride')
        .type('form')
        .send(form({ intent: 'bulk-tags', ids, add: 'page-tag', remove: '' }));
      expect([tagged.status, tagged.headers.location]).toEqual([302, '/contacts?q=stride']);
      expect((await agent.get(`/api/contacts/${b}`)).body.mailchimpTags).toEqual(['page-tag']);

      const added = await agent
        .post('/contacts')
        .type('form')
        .send(form({ intent: 'bulk-mailchimp', ids, audienceId: 'runners1' }));
      expect(added.status).toBe(200);
      expect(mc.member('runners1', 'ros@stride.example')).toMatchObject({ status: 'subscribed', tags: ['page-tag'] });

      const deleted = await agent
        .post('/contacts')
        .type('form')
        .send(form({ intent: 'bulk-delete', ids }));
      expect([deleted.status, deleted.headers.location]).toEqual([302, '/contacts']);
      expect((await agent.get(`/api/contacts/${a}`)).status).toBe(404);

      const { agent: viewer } = await t.signedInAgent('viewer@example.org', 'viewer');
      const c = await contact('Sam');
      const refused = await viewer
        .post('/contacts')
        .type('form')
        .send(form({ intent: 'bulk-delete', ids: String(c) }));
      expect(refused.status).toBe(403);
      expect((await agent.get(`/api/contacts/${c}`)).status).toBe(200);
    });
  });
});
