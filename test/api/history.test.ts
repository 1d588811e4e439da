import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTimestamp } from '@db/codecs.js';
import { describeEntry, type HistoryEntry } from '@shared/history.js';
import { samples } from './attachments-fixtures.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

describe('history of every change', () => {
  let t: TestApp;
  let anna: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    anna = (await t.signedInAgent('anna@example.org', 'staff')).agent;
    await anna.put('/api/account').send({ firstName: 'Anna', lastName: 'Lee' });
  });
  afterAll(() => t.close());

  const historyOf = async (path: string): Promise<HistoryEntry[]> => {
    const res = await anna.get(`${path}/history`);
    expect(res.status, res.text).toBe(200);
    return res.body.items as HistoryEntry[];
  };

  it('records a record’s create, update (changed fields only) and delete with a full snapshot', async () => {
    const created = await anna.post('/api/brands').send({ brandName: 'Stride', industryCategory: 'Shoes' });
    const id = created.body.id as number;
    await anna.put(`/api/brands/${id}`).send({ brandName: 'Stride Shoes', industryCategory: 'Shoes' });
    await anna.put(`/api/brands/${id}`).send({ brandName: 'Stride Shoes', industryCategory: 'Shoes' });
    const contact = await anna.post('/api/contacts').send({ firstName: 'Jo', lastName: 'Lane', entityType: 'brand', entityId: id });
    const payment = await anna.post('/api/payments').send({ entityType: 'brand', entityId: id, description: 'Banner', amount: '10.00' });

    const entries = await historyOf(`/api/brands/${id}`);
    // Newest first; the save that changed nothing left no entry.
    expect(entries.map((entry) => entry.action)).toEqual(['update', 'create']);
    expect(entries[0]).toMatchObject({
      actor: { kind: 'user', label: 'Anna Lee', runId: null },
      changes: { brandName: { from: 'Stride', to: 'Stride Shoes' } },
    });
    expect(describeEntry(entries[0]!, 'brand')).toEqual(['Anna Lee changed Brand name from Stride to Stride Shoes']);

    expect((await anna.delete(`/api/brands/${id}`)).status).toBe(204);
    const [deleted] = await historyOf(`/api/brands/${id}`);
    expect(deleted).toMatchObject({ action: 'delete', actor: { label: 'Anna Lee' } });
    const snapshot = deleted!.changes as {
      record: { brandName: string; totalAdvertisingSpend: string };
      contacts: Array<{ id: number }>;
      payments: Array<{ id: number }>;
      files: unknown[];
    };
    expect(snapshot.record).toMatchObject({ brandName: 'Stride Shoes', totalAdvertisingSpend: '10.00' });
    expect(snapshot.contacts.map((row) => row.id)).toEqual([contact.body.id]);
    expect(snapshot.payments.map((row) => row.id)).toEqual([payment.body.id]);
    expect(snapshot.files).toEqual([]);
  });

  it('records contacts and payments, readable as "Anna changed Invoice status from pending to paid"', async () => {
    const brand = (await anna.post('/api/brands').send({ brandName: 'Pace Co' })).body.id as number;
    const payment = (
      await anna
        .post('/api/payments')
        .send({ entityType: 'brand', entityId: brand, description: 'Ad', amount: '5.00', invoiceStatus: 'pending' })
    ).body.id;
    await anna.put(`/api/payments/${payment}`).send({ invoiceStatus: 'paid' });
    const [changed, created] = await historyOf(`/api/payments/${payment}`);
    expect(created).toMatchObject({ action: 'create' });
    expect(describeEntry(changed!, 'payment')).toEqual(['Anna Lee changed Invoice status from pending to paid']);
    // A write the service refuses leaves no history: it shares the write's transaction.
    expect((await anna.put(`/api/payments/${payment}`).send({ amount: '99999999999.00' })).status).toBe(400);
    expect(await historyOf(`/api/payments/${payment}`)).toHaveLength(2);
    await anna.delete(`/api/payments/${payment}`);
    expect((await historyOf(`/api/payments/${payment}`))[0]).toMatchObject({
      action: 'delete',
      changes: { description: 'Ad', amount: '5.00' },
    });

    const contact = (await anna.post('/api/contacts').send({ firstName: 'Jo', lastName: 'Lane', entityType: 'brand', entityId: brand }))
      .body.id;
    await anna.put(`/api/contacts/${contact}`).send({ jobTitle: 'Director' });
    await anna.delete(`/api/contacts/${contact}`);
    const contactHistory = await historyOf(`/api/contacts/${contact}`);
    expect(contactHistory.map((entry) => entry.action)).toEqual(['delete', 'update', 'create']);
    expect(describeEntry(contactHistory[1]!, 'contact')).toEqual(['Anna Lee changed Job title from empty to Director']);
  });

  it('records file uploads and deletes', async () => {
    const brand = (await anna.post('/api/brands').send({ brandName: 'Files Co' })).body.id as number;
    const uploaded = await anna
      .post('/api/upload')
      .field('entityType', 'brand')
      .field('entityId', String(brand))
      .attach('files', samples.png, { filename: 'logo.png', contentType: 'image/png' });
    expect(uploaded.status, uploaded.text).toBe(201);
    const fileId = uploaded.body.files[0].id as number;
    await anna.delete(`/api/files/${fileId}`);
    const entries = await historyOf(`/api/files/${fileId}`);
    expect(entries.map((entry) => entry.action)).toEqual(['delete', 'create']);
    expect(entries[1]!.changes).toMatchObject({ originalName: 'logo.png', fileType: 'image/png' });
  });

  it('records one entry per changed record for an import, named with its run id', async () => {
    const before = Number((await t.database.db('history').count({ n: '*' }).first())?.n);
    const res = await anna.post('/api/brands/bulk-import').send({
      data: [
        { Brand: 'Imported One', 'First Name': 'A', 'Last Name': 'B', Email: 'a@one.example' },
        { Brand: 'Imported One', 'First Name': 'C', 'Last Name': 'D', Email: 'c@one.example' },
        { Brand: 'Imported Two', 'First Name': 'E', 'Last Name': 'F', Email: 'e@two.example' },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const rows = (await t.database.db('history').where('id', '>', 0).orderBy('id')).slice(before) as Array<{
      entityType: string;
      runId: string;
      actorKind: string;
    }>;
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((row) => row.runId)).size).toBe(1);
    expect(rows.every((row) => row.actorKind === 'import' && row.entityType === 'brand')).toBe(true);
    const one = (await t.database.db('brands').where({ brandName: 'Imported One' }).first()) as { id: number };
    const [entry] = await historyOf(`/api/brands/${one.id}`);
    expect(entry).toMatchObject({ action: 'create', changes: { brandName: { from: null, to: 'Imported One' }, contactsAdded: 2 } });
    expect(describeEntry(entry!, 'brand')).toEqual(['Import created this brand']);
  });

  it('records an events import as one entry per event: its website from and to, and the contacts it was given', async () => {
    const now = encodeTimestamp(t.clock.now());
    const [id] = await t.database
      .db('events')
      .insert({ eventName: 'Harbour 10k', wordpressEventId: 4401, websiteUrl: 'https://old.example.org', createdAt: now, updatedAt: now });
    const res = await anna.post('/api/events/bulk-import').send({
      data: [
        { event_id: '4401', website: 'https://new.example.org', Email: 'one@harbour.example' },
        { event_id: '4401', website: '', Email: 'two@harbour.example' },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ updated: 1, created: 2 });
    const entries = await historyOf(`/api/events/${Number(id)}`);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'update',
      actor: { kind: 'import' },
      changes: { websiteUrl: { from: 'https://old.example.org', to: 'https://new.example.org' }, contactsAdded: 2 },
    });
  });

  it('records user changes made by an admin, and pages history newest first', async () => {
    const { agent: admin } = await t.signedInAgent('root@example.org', 'admin');
    const { user } = await t.signedInAgent('someone@example.org', 'staff');
    await admin.put(`/api/users/${user.id}`).send({ role: 'viewer' });
    // The test helper creates its users as `pacer users create` does, which leaves the first entry.
    const rows = await t.database.db('history').where({ entityType: 'user', entityId: user.id }).orderBy('id');
    expect(rows.map((row: { action: string }) => row.action)).toEqual(['create', 'update']);
    expect(JSON.parse(rows[1].changes)).toEqual({ role: { from: 'staff', to: 'viewer' } });

    const brand = (await anna.post('/api/brands').send({ brandName: 'Paged 0' })).body.id as number;
    for (let i = 1; i <= 22; i++) await anna.put(`/api/brands/${brand}`).send({ brandName: `Paged ${i}` });
    const first = await anna.get(`/api/brands/${brand}/history`);
    expect(first.body.total).toBe(23);
    expect(first.body.items).toHaveLength(20);
    expect(first.body.items[0].changes.brandName.to).toBe('Paged 22');
    const second = await anna.get(`/api/brands/${brand}/history?page=2`);
    expect(second.body.items.map((item: HistoryEntry) => item.action)).toEqual(['update', 'update', 'create']);
    expect((await anna.get(`/api/brands/${brand}/history?page=x`)).status).toBe(400);
  });
});
