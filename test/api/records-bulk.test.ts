import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTimestamp } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import { insertRecordRow } from '@services/records/writes.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { failDeleteOf } from '../helpers/failing-delete.js';
import { samples } from './attachments-fixtures.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

describe('bulk actions', () => {
  let t: TestApp;
  let agent: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    agent = (await t.signedInAgent()).agent;
  });
  afterAll(async () => t.close());

  const count = async (table: string) => Number(((await t.database.db(table).count({ n: '*' }).first()) as { n: number | string }).n);
  const storedFiles = () => readdirSync(t.uploadDir).filter((name) => !name.startsWith('.'));
  const brand = async (brandName: string) => (await agent.post('/api/brands').send({ brandName })).body.id as number;

  it('deletes the named records with what they own in one call, each kept in Recently deleted', async () => {
    const ids = [await brand('One'), await brand('Two'), await brand('Three')];
    const keep = await brand('Keep');
    await agent.post('/api/contacts').send({ entityType: 'brand', entityId: ids[0], firstName: 'A', lastName: 'B', email: 'a@b.example' });
    await agent.post('/api/payments').send({ entityType: 'brand', entityId: ids[1], description: 'Ad', amount: '10.00' });
    const uploaded = await agent
      .post('/api/upload')
      .field('entityType', 'brand')
      .field('entityId', String(ids[2]))
      .attach('files', samples.png, { filename: 'logo.png', contentType: 'image/png' });
    expect(uploaded.status).toBe(201);
    expect(storedFiles()).toHaveLength(1);

    const res = await agent.post('/api/brands/bulk-delete').send({ ids });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: 3 });
    expect((await agent.get('/api/brands')).body.items.map((b: { id: number }) => b.id)).toEqual([keep]);
    expect((await agent.get('/api/brands')).body.total).toBe(1);
    expect(await count('contacts')).toBe(0);
    expect(await count('payments')).toBe(0);
    expect(await count('files')).toBe(0);
    // Each record is kept restorable with what it held, the file's bytes included, until the trash is purged.
    expect(storedFiles()).toHaveLength(1);
    const { agent: admin } = await t.signedInAgent('admin@example.org', 'admin');
    const deleted = (await admin.get('/api/deleted')).body as Array<{ entityId: number; holds: Record<string, number> }>;
    expect(deleted.map((item) => [item.entityId, item.holds]).sort(([a], [b]) => Number(a) - Number(b))).toEqual([
      [ids[0], { contacts: 1, payments: 0, files: 0 }],
      [ids[1], { contacts: 0, payments: 1, files: 0 }],
      [ids[2], { contacts: 0, payments: 0, files: 1 }],
    ]);
    // The search index followed.
    expect((await agent.get('/api/brands?q=two')).body.total).toBe(0);
  });

  it('is all-or-nothing: an unknown id refuses the whole call and deletes nothing', async () => {
    const ids = [await brand('Alpha'), await brand('Beta')];
    const before = await count('brands');
    const res = await agent.post('/api/brands/bulk-delete').send({ ids: [...ids, 999_999] });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Brand not found: 999999');
    expect(await count('brands')).toBe(before);
  });

  it('rolls back every record of the call when the database fails part-way', async () => {
    const ids = [await brand('Gamma'), await brand('Delta')];
    await agent.post('/api/contacts').send({ entityType: 'brand', entityId: ids[0], firstName: 'G', lastName: 'H', email: 'g@h.example' });
    const [brands, contacts] = [await count('brands'), await count('contacts')];
    const restore = await failDeleteOf(t.database.db, 'brands', ids[1]!);
    try {
      expect((await agent.post('/api/brands/bulk-delete').send({ ids })).status).toBe(500);
    } finally {
      await restore();
    }
    // The first brand was deleted in the same transaction before the second failed: it is all back.
    expect([await count('brands'), await count('contacts')]).toEqual([brands, contacts]);
    expect((await agent.get('/api/brands?q=gamma')).body.total).toBe(1);
    const { agent: admin } = await t.signedInAgent('admin@example.org', 'admin');
    expect(((await admin.get('/api/deleted')).body as Array<{ entityId: number }>).map((item) => item.entityId)).not.toContain(ids[0]);
  });

  it('refuses published professionals, naming them, and deletes none of the others', async () => {
    const now = encodeTimestamp(t.clock.now());
    const synced = await withTransaction({ db: t.database.db }, (trx) =>
      insertRecordRow(trx, 'professional', {
        businessName: 'Synced Coaching',
        wordpressProfessionalId: 77,
        createdAt: now,
        updatedAt: now,
      }),
    );
    const local = (await agent.post('/api/professionals').send({ businessName: 'Local Physio' })).body.id as number;
    const res = await agent.post('/api/professionals/bulk-delete').send({ ids: [local, synced] });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Published on the content website (they have a wordpress id), so nothing was deleted: Synced Coaching');
    expect(await count('professionals')).toBe(2);
    // The single delete keeps its own words.
    expect((await agent.delete(`/api/professionals/${synced}`)).body.message).toBe(
      'This professional is published on the content website (it has a wordpress id) and cannot be deleted here',
    );
    expect((await agent.post('/api/professionals/bulk-delete').send({ ids: [local] })).body).toEqual({ deleted: 1 });
  });

  it('takes at most 1,000 ids and refuses malformed lists with a 400', async () => {
    for (const [body, message] of [
      [{ ids: Array.from({ length: 1001 }, (_, i) => i + 1) }, 'At most 1000 ids a call'],
      [{ ids: [] }, 'ids must name at least one record'],
      [{ ids: [1, -2] }, 'Each id must be a positive whole number'],
      [{ ids: 'all' }, 'ids must be a list of record ids'],
      [{ ids: [1], extra: true }, 'Unknown field(s): extra'],
      [{}, 'ids must be a list of record ids'],
    ] as const) {
      const res = await agent.post('/api/events/bulk-delete').send(body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(res.body.message).toBe(message);
    }
    // 1,000 is allowed (all unknown here, so refused as not found rather than as too many).
    expect((await agent.post('/api/events/bulk-delete').send({ ids: Array.from({ length: 1000 }, (_, i) => i + 500_000) })).status).toBe(
      404,
    );
  });

  it('adds and removes contact tags in bulk, all or nothing', async () => {
    const owner = await brand('Tagged');
    const contact = async (firstName: string, mailchimpTags: string[]) =>
      (
        await agent
          .post('/api/contacts')
          .send({ entityType: 'brand', entityId: owner, firstName, lastName: 'X', email: `${firstName}@x.example`, mailchimpTags })
      ).body.id as number;
    const a = await contact('ann', ['vip', 'old']);
    const b = await contact('bob', []);
    const res = await agent.post('/api/contacts/bulk-tags').send({ ids: [a, b], add: 'newsletter, partner', remove: ['OLD'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ updated: 2 });
    expect((await agent.get(`/api/contacts/${a}`)).body.mailchimpTags).toEqual(['vip', 'newsletter', 'partner']);
    expect((await agent.get(`/api/contacts/${b}`)).body.mailchimpTags).toEqual(['newsletter', 'partner']);
    // Nothing to change is not an update.
    expect((await agent.post('/api/contacts/bulk-tags').send({ ids: [b], add: ['partner'] })).body).toEqual({ updated: 0 });

    const refused = await agent.post('/api/contacts/bulk-tags').send({ ids: [a, 888_888], add: ['lost'] });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe('Contact not found: 888888');
    expect((await agent.get(`/api/contacts/${a}`)).body.mailchimpTags).not.toContain('lost');
    expect((await agent.post('/api/contacts/bulk-tags').send({ ids: [a] })).body.message).toBe('Name a tag to add or to remove');
    expect(
      (await agent.post('/api/contacts/bulk-tags').send({ ids: Array.from({ length: 1001 }, (_, i) => i + 1), add: ['x'] })).status,
    ).toBe(400);
  });
});
