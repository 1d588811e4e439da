import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

describe('notes (issue 33)', () => {
  let t: TestApp;
  let staff: Agent;
  let other: Agent;
  let viewer: Agent;
  let admin: Agent;
  let staffId: number;
  let otherId: number;
  let brandId: number;
  let contactId: number;

  beforeAll(async () => {
    t = await createTestApp();
    const s = await t.signedInAgent('sam.staff@example.org', 'staff');
    staff = s.agent;
    staffId = s.user.id;
    const o = await t.signedInAgent('olga.other@example.org', 'staff');
    other = o.agent;
    otherId = o.user.id;
    viewer = (await t.signedInAgent('vic.viewer@example.org', 'viewer')).agent;
    admin = (await t.signedInAgent('ada.admin@example.org', 'admin')).agent;
    brandId = (await staff.post('/api/brands').send({ brandName: 'Stride Shoes' })).body.id as number;
    contactId = (await staff.post('/api/contacts').send({ entityType: 'brand', entityId: brandId, firstName: 'Ana', lastName: 'Lima' }))
      .body.id as number;
  });
  afterAll(() => t.close());

  it('adds, lists (pinned first, then newest), edits with an edited mark, and deletes notes', async () => {
    const first = await staff.post('/api/notes').send({ entityType: 'brand', entityId: brandId, body: 'Met at the **expo**' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      entityType: 'brand',
      entityId: brandId,
      body: 'Met at the **expo**',
      pinned: false,
      createdBy: staffId,
      authorName: 'Sam Staff',
      editedAt: null,
      mentions: [],
    });
    t.clock.advance(1000);
    const second = await staff.post('/api/notes').send({ entityType: 'brand', entityId: brandId, body: 'Second note' });
    const listed = await viewer.get(`/api/notes?entityType=brand&entityId=${brandId}`);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((n: { id: number }) => n.id)).toEqual([second.body.id, first.body.id]);

    const pinned = await other.put(`/api/notes/${first.body.id}`).send({ pinned: true });
    expect(pinned.status).toBe(200);
    expect(pinned.body).toMatchObject({ pinned: true, editedAt: null });
    const again = await staff.get(`/api/notes?entityType=brand&entityId=${brandId}`);
    expect(again.body.items.map((n: { id: number }) => n.id)).toEqual([first.body.id, second.body.id]);

    t.clock.advance(60_000);
    const edited = await staff.put(`/api/notes/${second.body.id}`).send({ body: 'Second note, edited' });
    expect(edited.status).toBe(200);
    expect(edited.body.body).toBe('Second note, edited');
    expect(edited.body.editedAt).toBe(t.clock.now().toISOString());

    // Only the author (or an admin) changes the text.
    expect((await other.put(`/api/notes/${second.body.id}`).send({ body: 'Not mine' })).status).toBe(403);
    expect((await admin.put(`/api/notes/${second.body.id}`).send({ body: 'Admin fix' })).status).toBe(200);

    expect((await staff.delete(`/api/notes/${second.body.id}`)).status).toBe(204);
    expect((await staff.get(`/api/notes?entityType=brand&entityId=${brandId}`)).body.items).toHaveLength(1);
  });

  it('notes on contacts too', async () => {
    const note = await staff.post('/api/notes').send({ entityType: 'contact', entityId: contactId, body: 'Prefers phone calls' });
    expect(note.status).toBe(201);
    expect((await staff.get(`/api/notes?entityType=contact&entityId=${contactId}`)).body.items[0].body).toBe('Prefers phone calls');
  });

  it('refuses bad input with 4xx, never 500', async () => {
    expect((await staff.post('/api/notes').send({ entityType: 'brand', entityId: brandId, body: '' })).status).toBe(400);
    expect((await staff.post('/api/notes').send({ entityType: 'brand', entityId: brandId, body: 'x'.repeat(20_001) })).status).toBe(400);
    expect((await staff.post('/api/notes').send({ entityType: 'brand', entityId: brandId, body: 'x'.repeat(20_000) })).status).toBe(201);
    expect((await staff.post('/api/notes').send({ entityType: 'planet', entityId: 1, body: 'x' })).status).toBe(400);
    expect((await staff.post('/api/notes').send({ entityType: 'brand', entityId: 999999, body: 'x' })).status).toBe(404);
    expect((await staff.get('/api/notes?entityType=brand')).status).toBe(400);
    expect((await staff.get('/api/notes?entityType=brand&entityId=999999')).status).toBe(404);
    expect((await staff.put('/api/notes/999999').send({ body: 'x' })).status).toBe(404);
    expect((await staff.put('/api/notes/abc').send({ body: 'x' })).status).toBe(404);
    expect((await staff.put('/api/notes/1').send({})).status).toBe(400);
    expect((await staff.post('/api/notes').send({ entityType: 'brand', entityId: brandId, body: 'x', extra: 1 })).status).toBe(400);
  });

  it('lets viewers read but not write', async () => {
    const note = await staff.post('/api/notes').send({ entityType: 'brand', entityId: brandId, body: 'Viewer test' });
    expect((await viewer.post('/api/notes').send({ entityType: 'brand', entityId: brandId, body: 'Nope' })).status).toBe(403);
    expect((await viewer.put(`/api/notes/${note.body.id}`).send({ pinned: true })).status).toBe(403);
    expect((await viewer.delete(`/api/notes/${note.body.id}`)).status).toBe(403);
    expect((await viewer.get(`/api/notes?entityType=brand&entityId=${brandId}`)).status).toBe(200);
  });

  it('@mentions store the user and notify them once (not the author), with unread counts and mark read', async () => {
    const note = await staff.post('/api/notes').send({
      entityType: 'brand',
      entityId: brandId,
      body: 'Ask @olga.other@example.org and @sam.staff@example.org and @nobody@example.org',
    });
    expect(note.status).toBe(201);
    expect(note.body.mentions).toEqual([staffId, otherId].sort((a, b) => a - b));
    const bell = await other.get('/api/notifications');
    expect(bell.body.unread).toBe(1);
    expect(bell.body.items[0]).toMatchObject({
      kind: 'mention',
      text: 'Sam Staff mentioned you in a note on Stride Shoes',
      url: `/brands/${brandId}`,
      read: false,
    });
    expect((await staff.get('/api/notifications')).body.items.filter((n: { kind: string }) => n.kind === 'mention')).toHaveLength(0);
    // Editing keeps the mention: no second notification.
    await staff.put(`/api/notes/${note.body.id}`).send({ body: 'Ask @olga.other@example.org again' });
    expect((await other.get('/api/notifications')).body.unread).toBe(1);
    // The count comes with the session too.
    expect((await other.get('/api/session')).body.attention).toMatchObject({ unread: 1 });

    const read = await other.post('/api/notifications/read').send({ ids: [bell.body.items[0].id] });
    expect(read.body).toEqual({ unread: 0 });
    expect((await other.get('/api/notifications')).body.items[0].read).toBe(true);
    // Viewers may mark their own read; a bad body is a 400.
    expect((await viewer.post('/api/notifications/read').send({ all: true })).status).toBe(200);
    expect((await viewer.post('/api/notifications/read').send({ ids: 'x' })).status).toBe(400);
  });

  it("finds a record by its notes' words in the list search and the global search, and forgets them when deleted", async () => {
    const note = await staff.post('/api/notes').send({ entityType: 'brand', entityId: brandId, body: 'Loves zanzibarquokka trail runs' });
    const list = await staff.get('/api/brands?q=zanzibarquokka');
    expect(list.body.items.map((b: { id: number }) => b.id)).toEqual([brandId]);
    const search = await staff.get('/api/search?q=zanzibarquokka');
    const brands = search.body.groups.find((g: { type: string }) => g.type === 'brand');
    expect(brands.items.map((b: { id: number }) => b.id)).toEqual([brandId]);

    await staff.post('/api/notes').send({ entityType: 'contact', entityId: contactId, body: 'quetzalmarmot fan' });
    const contacts = (await staff.get('/api/search?q=quetzalmarmot')).body.groups.find((g: { type: string }) => g.type === 'contact');
    expect(contacts.items.map((c: { id: number }) => c.id)).toEqual([contactId]);

    await staff.delete(`/api/notes/${note.body.id}`);
    expect((await staff.get('/api/brands?q=zanzibarquokka')).body.items).toEqual([]);
    // Undo brings it back, and its words with it.
    const undo = await staff.post('/api/deleted/undo').send({ type: 'note', ids: [note.body.id] });
    expect(undo.body).toEqual({ restored: 1 });
    expect((await staff.get('/api/brands?q=zanzibarquokka')).body.items.map((b: { id: number }) => b.id)).toEqual([brandId]);
  });

  it('a deleted note waits in Recently deleted and an admin restores it with the same id', async () => {
    const note = await staff
      .post('/api/notes')
      .send({ entityType: 'brand', entityId: brandId, body: 'To be restored, see @olga.other@example.org' });
    await staff.delete(`/api/notes/${note.body.id}`);
    const deleted = await admin.get('/api/deleted');
    const entry = deleted.body.find((item: { type: string; entityId: number }) => item.type === 'note' && item.entityId === note.body.id);
    expect(entry).toMatchObject({ name: 'To be restored, see @olga.other@example.org', deletedBy: 'Sam Staff' });
    expect((await admin.post(`/api/deleted/${entry.id}/restore`)).status).toBe(200);
    const back = (await staff.get(`/api/notes?entityType=brand&entityId=${brandId}`)).body.items.find(
      (n: { id: number }) => n.id === note.body.id,
    );
    expect(back).toMatchObject({ body: note.body.body, mentions: [otherId], createdAt: note.body.createdAt });
    // Someone else's note cannot be undone by another user.
    await staff.delete(`/api/notes/${note.body.id}`);
    expect((await other.post('/api/deleted/undo').send({ type: 'note', ids: [note.body.id] })).status).toBe(404);
  });
});
