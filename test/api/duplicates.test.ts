import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '@db/transaction.js';
import { findMatches } from '@services/duplicates/service.js';
import { describeEntry, type HistoryEntry } from '@shared/history.js';
import { insertRecordRows, updateRecordRows } from '@services/records/writes.js';
import { insertContactRows } from '@services/contacts/writes.js';
import type { DuplicatePage, DuplicatePair } from '@shared/schemas/duplicates.js';
import { samples } from './attachments-fixtures.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

describe('possible duplicates, dismissals and merge', () => {
  let t: TestApp;
  let agent: Agent;
  let viewer: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    agent = (await t.signedInAgent('dee@example.org', 'staff')).agent;
    await agent.put('/api/account').send({ firstName: 'Dee', lastName: 'Pacer' });
    viewer = (await t.signedInAgent('val@example.org', 'viewer')).agent;
  });
  afterAll(() => t.close());

  const create = async (path: string, body: object) => {
    const res = await agent.post(path).send(body);
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };
  const pairs = async (type: string, query = ''): Promise<DuplicatePair[]> => {
    const res = await agent.get(`/api/duplicates?type=${type}${query}`);
    expect(res.status, res.text).toBe(200);
    return (res.body as DuplicatePage).items;
  };
  const pairOf = (list: DuplicatePair[], x: number, y: number) =>
    list.find((pair) => pair.a === Math.min(x, y) && pair.b === Math.max(x, y));

  it('finds brands by normalised name (legal suffix, case, punctuation, accents) and by a similar name', async () => {
    const sole = await create('/api/brands', { brandName: 'Sole Motive' });
    const solePty = await create('/api/brands', { brandName: 'Solemotive Pty Ltd' });
    const cafe = await create('/api/brands', { brandName: 'The Café Runners, Inc.' });
    const cafe2 = await create('/api/brands', { brandName: 'cafe runners' });
    const stride = await create('/api/brands', { brandName: 'Stridewell Running' });
    const stride2 = await create('/api/brands', { brandName: 'Stridewel Runing' });
    // Near misses that differ: another word, another company.
    const other = await create('/api/brands', { brandName: 'Sole Motive Kids' });
    const unrelated = await create('/api/brands', { brandName: 'Harbour Shoes' });

    const list = await pairs('brands');
    expect(pairOf(list, sole, solePty)).toMatchObject({ reasons: ['same name'], score: 0.9 });
    expect(pairOf(list, sole, solePty)!.records.map((side) => side.name)).toEqual(['Sole Motive', 'Solemotive Pty Ltd']);
    expect(pairOf(list, cafe, cafe2)?.reasons).toEqual(['same name']);
    const similar = pairOf(list, stride, stride2);
    expect(similar?.reasons[0]).toMatch(/^similar name \(0\.\d\d\)$/);
    expect(similar!.score).toBeGreaterThan(0.4);
    expect(similar!.score).toBeLessThan(0.9);
    expect(pairOf(list, other, sole)?.reasons ?? []).not.toContain('same name');
    for (const id of [sole, solePty, cafe, cafe2, stride, stride2, other]) expect(pairOf(list, unrelated, id)).toBeUndefined();

    // A rename keeps the pairs in step: the renamed brand leaves them.
    expect((await agent.put(`/api/brands/${cafe2}`).send({ brandName: 'Totally Different Co' })).status).toBe(200);
    expect(pairOf(await pairs('brands'), cafe, cafe2)).toBeUndefined();
  });

  it('finds contacts by normalised email and phone across owners, not by near misses', async () => {
    const brand = await create('/api/brands', { brandName: 'Contact Owner Brand' });
    const club = await create('/api/runclubs', { clubName: 'Contact Owner Club' });
    const contact = (body: object) =>
      create('/api/contacts', { firstName: 'Sam', lastName: 'Lee', entityType: 'brand', entityId: brand, ...body });
    const a = await contact({ email: 'Sam.Lee@Example.org' });
    const b = await contact({ firstName: 'Samuel', email: 'SAM.LEE@EXAMPLE.ORG', entityType: 'runclub', entityId: club });
    const c = await contact({ phone: '+61 412 345 678' });
    const d = await contact({ firstName: 'Other', phone: '0412-345-678', entityType: 'runclub', entityId: club });
    const nearEmail = await contact({ email: 'sam.lee2@example.org' });
    const nearPhone = await contact({ phone: '0412 345 679' });

    const list = await pairs('contacts');
    expect(pairOf(list, a, b)).toMatchObject({ reasons: ['same email'], score: 0.95 });
    expect(pairOf(list, c, d)).toMatchObject({ reasons: ['same phone'], score: 0.9 });
    expect(pairOf(list, a, nearEmail)).toBeUndefined();
    expect(pairOf(list, c, nearPhone)).toBeUndefined();
    // Same name alone is no reason for contacts: a and c are both Sam Lee.
    expect(pairOf(list, a, c)).toBeUndefined();
  });

  it('pages by cursor and keeps a dismissal', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await create('/api/media', { mediaName: i % 2 ? 'Run Weekly' : 'RUN WEEKLY!' }));
    const all: DuplicatePair[] = [];
    let cursor = '';
    for (let page = 0; page < 5; page++) {
      const res = await agent.get(`/api/duplicates?type=media&limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.body.items.length).toBeLessThanOrEqual(4);
      all.push(...(res.body.items as DuplicatePair[]));
      if (!res.body.nextCursor) break;
      expect(res.body.nextCursor).toMatch(/^\d+:\d+$/);
      cursor = res.body.nextCursor as string;
    }
    expect(all).toHaveLength(10); // every pair of the five, once
    expect(new Set(all.map((pair) => `${pair.a}:${pair.b}`)).size).toBe(10);

    expect((await viewer.post('/api/duplicates/dismiss').send({ type: 'media', a: ids[1], b: ids[0] })).status).toBe(403);
    expect((await agent.post('/api/duplicates/dismiss').send({ type: 'media', a: ids[1], b: ids[0] })).status).toBe(200);
    expect((await agent.post('/api/duplicates/dismiss').send({ type: 'media', a: ids[1], b: ids[0] })).status).toBe(200);
    expect(pairOf(await pairs('media'), ids[0]!, ids[1]!)).toBeUndefined();
    // It sticks when the records change again.
    await agent.put(`/api/media/${ids[0]}`).send({ mediaName: 'Run weekly' });
    expect(pairOf(await pairs('media'), ids[0]!, ids[1]!)).toBeUndefined();
    expect(pairOf(await pairs('media'), ids[0]!, ids[2]!)).toBeDefined();

    expect((await agent.post('/api/duplicates/dismiss').send({ type: 'media', a: ids[0], b: ids[0] })).status).toBe(400);
    expect((await agent.post('/api/duplicates/dismiss').send({ type: 'nope', a: 1, b: 2 })).status).toBe(400);
    expect((await agent.post('/api/duplicates/dismiss').send({ type: 'media', a: ids[0], b: 999999 })).status).toBe(404);
    expect((await agent.get('/api/duplicates?type=widgets')).status).toBe(400);
    expect((await agent.get('/api/duplicates?type=media&cursor=x')).status).toBe(400);
  });

  it('warns about a new record matching an existing one', async () => {
    await create('/api/runclubs', { clubName: 'Bondi Harriers' });
    const res = await agent.get('/api/duplicates/check?type=runclubs&clubName=' + encodeURIComponent('Bondi Harriers Inc'));
    expect(res.status).toBe(200);
    expect(res.body.matches).toEqual([expect.objectContaining({ name: 'Bondi Harriers', reasons: ['same name'] })]);
    expect((await agent.get('/api/duplicates/check?type=runclubs&clubName=Zzyzx')).body.matches).toEqual([]);
  });

  it('keeps the keys of a bulk write (an import batch): same names pair at once', async () => {
    const now = '2026-11-28 10:00:00.000';
    const rows = Array.from({ length: 80 }, (_, i) => ({
      mediaName: i === 79 ? 'Bulk Outlet Pty Ltd' : `Bulk Outlet ${i}`,
      createdAt: now,
      updatedAt: now,
    }));
    rows[0]!.mediaName = 'Bulk Outlet';
    const ids = await withTransaction({ db: t.database.db }, (trx) => insertRecordRows(trx, 'media', rows));
    expect(pairOf(await pairs('media', '&limit=200'), ids[0]!, ids[79]!)).toMatchObject({ reasons: ['same name'] });
  });

  it('pairs a bulk insert of contacts (an import batch) with stored contacts and with each other, by exact keys only', async () => {
    const brand = await create('/api/brands', { brandName: 'Bulk Contacts Brand' });
    const stored = (body: object) =>
      create('/api/contacts', { firstName: 'Kit', lastName: 'Stored', entityType: 'brand', entityId: brand, ...body });
    const byEmail = await stored({ email: 'kit.bulk@example.org' });
    const byPhone = await stored({ phone: '+61 413 000 111' });
    const plain = await stored({ email: 'jose.bulk@example.org' });
    const now = '2026-11-28 10:00:00.000';
    const row = (i: number, values: { email?: string; phone?: string } = {}) => ({
      firstName: `Bulk${i}`,
      lastName: 'Contact',
      jobTitle: null,
      email: values.email ?? `bulk${i}.contact@example.org`,
      phone: values.phone ?? null,
      mailchimpTags: null,
      entityType: 'brand',
      entityId: brand,
      isPrimary: 0,
      createdAt: now,
      updatedAt: now,
      createdBy: null,
    });
    // More rows than a write looks for similar names in: the keys and pairs of a whole import batch at once.
    const rows = Array.from({ length: 60 }, (_, i) => row(i));
    rows[0] = row(0, { email: 'KIT.BULK@example.org' });
    rows[1] = row(1, { phone: '0413-000-111' });
    rows[2] = row(2, { email: 'twin.bulk@example.org', phone: '0413 999 000' });
    rows[59] = row(59, { email: 'Twin.Bulk@example.org', phone: '+61 413 999 000' });
    // Equal to a stored email under MariaDB's accent-blind collation, but not the same inbox.
    rows[3] = row(3, { email: 'josé.bulk@example.org' });
    const ids = await withTransaction({ db: t.database.db }, (trx) => insertContactRows(trx, rows, ['phone']));

    const list = await pairs('contacts', '&limit=200');
    expect(pairOf(list, ids[0]!, byEmail)).toMatchObject({ reasons: ['same email'] });
    expect(pairOf(list, ids[1]!, byPhone)).toMatchObject({ reasons: ['same phone'] });
    expect(pairOf(list, ids[2]!, ids[59]!)).toMatchObject({ reasons: ['same email', 'same phone'] });
    expect(pairOf(list, ids[3]!, plain)).toBeUndefined();
    const bulk = new Set(ids);
    expect(list.filter((pair) => bulk.has(pair.a) || bulk.has(pair.b))).toHaveLength(3);
  });

  it('answers the import preview per row the existing records it matches (findMatches)', async () => {
    const id = await create('/api/professionals', { businessName: 'Bayside Physio Pty Ltd' });
    const [same, similar, none] = await findMatches(t.ctx, 'professional', [
      { businessName: 'bayside physio' },
      { businessName: 'Bayside Physo Clinic' },
      { businessName: 'Mountain Coaching' },
    ]);
    expect(same).toEqual([{ id, name: 'Bayside Physio Pty Ltd', score: 0.9, reasons: ['same name'] }]);
    expect(similar?.[0]).toMatchObject({ id, reasons: [expect.stringMatching(/^similar name \(0\.\d\d\)$/)] });
    expect(none).toEqual([]);
    const contactMatches = await findMatches(t.ctx, 'contact', [{ email: 'SAM.LEE@example.org' }, { phone: '+61412345678' }]);
    // The two Sams of the contacts test share the email, the two others the phone.
    expect(contactMatches.map((list) => list.map((match) => match.reasons))).toEqual([
      [['same email'], ['same email']],
      [['same phone'], ['same phone']],
    ]);
  });

  it('merges a brand with everything moved, and restoring it undoes the merge with its moves', async () => {
    const keep = await create('/api/brands', { brandName: 'Pace Lab', industryCategory: 'Shoes' });
    t.clock.advance(1000);
    const merge = await create('/api/brands', {
      brandName: 'Pace Lab Pty Ltd',
      industryCategory: 'Apparel',
      websiteUrl: 'https://pacelab.example',
    });
    const contact = await create('/api/contacts', { firstName: 'Jo', lastName: 'Lane', entityType: 'brand', entityId: merge });
    const payment = await create('/api/payments', { entityType: 'brand', entityId: merge, description: 'Ad', amount: '12.50' });
    await create('/api/payments', { entityType: 'brand', entityId: keep, description: 'Ad', amount: '1.00' });
    const uploaded = await agent
      .post('/api/upload')
      .field('entityType', 'brand')
      .field('entityId', String(merge))
      .attach('files', samples.png, 'logo.png');
    expect(uploaded.status, uploaded.text).toBe(201);
    const file = (await t.ctx.db('files').where({ entityType: 'brand', entityId: merge }).first('id')) as { id: number };
    const note = await create('/api/notes', { entityType: 'brand', entityId: merge, body: 'Wants a zebrastripe banner' });
    const me = (await agent.get('/api/me')).body.user as { id: number };
    const task = await create('/api/tasks', {
      title: 'Call back',
      dueDate: '2026-12-01',
      assigneeId: me.id,
      entityType: 'brand',
      entityId: merge,
    });
    const foundByNote = async () =>
      ((await agent.get('/api/brands?q=zebrastripe')).body.items as Array<{ id: number }>).map((item) => item.id);
    expect(await foundByNote()).toEqual([merge]);

    const preview = await agent.get(`/api/merge?type=brands&a=${keep}&b=${merge}`);
    expect(preview.status).toBe(200);
    const field = (name: string) => (preview.body.fields as Array<{ field: string; choice: string }>).find((f) => f.field === name);
    expect(field('websiteUrl')).toMatchObject({ keep: null, merge: 'https://pacelab.example', choice: 'merge' });
    expect(field('brandName')?.choice).toBe('merge'); // both set: the newer one
    expect(preview.body.refusal).toBeNull();

    expect((await viewer.post('/api/merge').send({ type: 'brands', keepId: keep, mergeId: merge })).status).toBe(403);
    const res = await agent
      .post('/api/merge')
      .send({ type: 'brands', keepId: keep, mergeId: merge, fields: { brandName: 'keep', industryCategory: 'keep' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ keepId: keep, mergeId: merge, moved: { contacts: 1, payments: 1, files: 1, notes: 1, tasks: 1 } });
    // The notes and tasks moved too, and the note's words now find the kept brand.
    expect((await t.ctx.db('notes').where({ id: note }).first()).entityId).toBe(keep);
    expect((await t.ctx.db('tasks').where({ id: task }).first()).entityId).toBe(keep);
    expect(await foundByNote()).toEqual([keep]);

    const kept = (await agent.get(`/api/brands/${keep}`)).body;
    expect(kept).toMatchObject({
      brandName: 'Pace Lab',
      industryCategory: 'Shoes',
      websiteUrl: 'https://pacelab.example',
      totalAdvertisingSpend: '13.50',
    });
    expect((await agent.get(`/api/brands/${merge}`)).status).toBe(404);
    expect((await agent.get(`/api/contacts/${contact}`)).body).toMatchObject({ entityType: 'brand', entityId: keep });
    expect((await t.ctx.db('payments').where({ id: payment }).first()).entityId).toBe(keep);
    expect((await t.ctx.db('files').where({ id: file.id }).first()).entityId).toBe(keep);
    const keptHistory = (await agent.get(`/api/brands/${keep}/history`)).body.items;
    expect(keptHistory[0]).toMatchObject({
      action: 'update',
      actor: { label: 'Dee Pacer' },
      changes: { merged: { id: merge, name: 'Pace Lab Pty Ltd' } },
    });
    // The merged record's own history moved with it; its last entry says where it went.
    expect(keptHistory.some((entry: { changes: { brandName?: string } }) => entry.changes.brandName === 'Pace Lab Pty Ltd')).toBe(true);
    expect(describeEntry(keptHistory[0] as HistoryEntry, 'brand')).toEqual([
      'Dee Pacer merged Pace Lab Pty Ltd into this brand',
      'Dee Pacer changed Website URL from empty to https://pacelab.example',
    ]);
    const mergedHistory = (await agent.get(`/api/brands/${merge}/history`)).body.items;
    expect(describeEntry(mergedHistory[0] as HistoryEntry, 'brand')).toEqual(['Dee Pacer merged this brand into Pace Lab']);
    expect(mergedHistory).toEqual([expect.objectContaining({ action: 'delete', changes: { mergedInto: { id: keep, name: 'Pace Lab' } } })]);
    expect(pairOf(await pairs('brands'), keep, merge)).toBeUndefined();

    // Undo: restore the merged brand from Recently deleted (the merger's own undo).
    const undo = await agent.post('/api/deleted/undo').send({ type: 'brand', ids: [merge] });
    expect(undo.status, undo.text).toBe(200);
    expect((await agent.get(`/api/brands/${merge}`)).body).toMatchObject({ brandName: 'Pace Lab Pty Ltd', totalAdvertisingSpend: '12.50' });
    expect((await agent.get(`/api/brands/${keep}`)).body).toMatchObject({ websiteUrl: null, totalAdvertisingSpend: '1.00' });
    expect((await agent.get(`/api/contacts/${contact}`)).body).toMatchObject({ entityId: merge });
    expect((await t.ctx.db('payments').where({ id: payment }).first()).entityId).toBe(merge);
    expect((await t.ctx.db('files').where({ id: file.id }).first()).entityId).toBe(merge);
    expect((await t.ctx.db('notes').where({ id: note }).first()).entityId).toBe(merge);
    expect((await t.ctx.db('tasks').where({ id: task }).first()).entityId).toBe(merge);
    expect(await foundByNote()).toEqual([merge]);
    const restoredHistory = (await agent.get(`/api/brands/${merge}/history`)).body.items as Array<{ action: string }>;
    expect(restoredHistory.map((entry) => entry.action)).toEqual(['create', 'delete', 'create']);
    expect(pairOf(await pairs('brands'), keep, merge)).toMatchObject({ reasons: ['same name'] });
  });

  it('refuses merging two synced records, the synced one away, a record with itself, and unknown ids', async () => {
    const a = await create('/api/events', { eventName: 'Harbour Half' });
    const b = await create('/api/events', { eventName: 'Harbour Half Marathon' });
    const c = await create('/api/events', { eventName: 'Harbour Half' });
    await withTransaction({ db: t.database.db }, async (trx) => {
      await updateRecordRows(trx, 'event', [a], { wordpressEventId: 9101 });
      await updateRecordRows(trx, 'event', [b], { wordpressEventId: 9102 });
    });
    const both = await agent.post('/api/merge').send({ type: 'events', keepId: a, mergeId: b });
    expect(both.status).toBe(409);
    expect(both.body.message).toMatch(/Both events are synced with the content website/);
    const away = await agent.post('/api/merge').send({ type: 'events', keepId: c, mergeId: a });
    expect(away.status).toBe(409);
    expect(away.body.message).toMatch(/keep that one instead/);
    expect((await agent.get(`/api/merge?type=events&a=${c}&b=${a}`)).body.refusal).toMatch(/keep that one instead/);
    expect((await agent.post('/api/merge').send({ type: 'events', keepId: a, mergeId: a })).status).toBe(400);
    expect((await agent.post('/api/merge').send({ type: 'events', keepId: a, mergeId: 987654 })).status).toBe(404);
    expect((await agent.post('/api/merge').send({ type: 'events', keepId: a, mergeId: c, fields: { nope: 'keep' } })).status).toBe(400);
    expect((await agent.post('/api/merge').send({ type: 'events', keepId: a, mergeId: c, fields: { eventName: 'both' } })).status).toBe(
      400,
    );
    // The synced one kept: allowed.
    const ok = await agent.post('/api/merge').send({ type: 'events', keepId: a, mergeId: c });
    expect(ok.status, ok.text).toBe(200);
    expect((await agent.get(`/api/events/${a}`)).body.wordpressEventId).toBe(9101);
  });

  it('merges contacts', async () => {
    const brand = await create('/api/brands', { brandName: 'Contact Merge Brand' });
    const keep = await create('/api/contacts', {
      firstName: 'Kim',
      lastName: 'Ng',
      email: 'kim@example.org',
      entityType: 'brand',
      entityId: brand,
    });
    const merge = await create('/api/contacts', {
      firstName: 'Kim',
      lastName: 'Ng',
      email: 'KIM@example.org',
      phone: '0400 000 111',
      entityType: 'brand',
      entityId: brand,
    });
    expect(pairOf(await pairs('contacts'), keep, merge)).toBeDefined();
    const res = await agent.post('/api/merge').send({ type: 'contacts', keepId: keep, mergeId: merge, fields: { email: 'keep' } });
    expect(res.status, res.text).toBe(200);
    expect((await agent.get(`/api/contacts/${keep}`)).body).toMatchObject({ email: 'kim@example.org', phone: '0400 000 111' });
    expect((await agent.get(`/api/contacts/${merge}`)).status).toBe(404);
    expect(pairOf(await pairs('contacts'), keep, merge)).toBeUndefined();
  });
});
