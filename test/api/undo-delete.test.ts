import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

/** Issue 29 point 6: a delete's toast offers Undo, which brings back what this user just deleted. */
describe('POST /api/deleted/undo', () => {
  let t: TestApp;
  let staff: Agent;
  let other: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    staff = (await t.signedInAgent('undoer@example.org')).agent;
    other = (await t.signedInAgent('other@example.org')).agent;
  });
  afterAll(async () => t.close());

  const brand = async (brandName: string) => (await staff.post('/api/brands').send({ brandName })).body.id as number;
  const deletedCount = async () => Number(((await t.database.db('deleted_items').count({ n: '*' }).first()) as { n: number | string }).n);

  it('brings back a record this user deleted, with its contacts, and takes it out of Recently deleted', async () => {
    const id = await brand('Undo Shoes');
    await staff
      .post('/api/contacts')
      .send({ entityType: 'brand', entityId: id, firstName: 'Uma', lastName: 'Undo', email: 'uma@undo.example' });
    expect((await staff.delete(`/api/brands/${id}`)).status).toBe(204);
    expect((await staff.get(`/api/brands/${id}`)).status).toBe(404);
    const before = await deletedCount();

    const res = await staff.post('/api/deleted/undo').send({ type: 'brand', ids: [id] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ restored: 1 });
    expect((await staff.get(`/api/brands/${id}`)).body.brandName).toBe('Undo Shoes');
    const contacts = await staff.get(`/api/contacts/brand/${id}`);
    expect(JSON.stringify(contacts.body)).toContain('uma@undo.example');
    expect(await deletedCount()).toBe(before - 1);
    // Undone once: a second Undo finds nothing to bring back.
    expect((await staff.post('/api/deleted/undo').send({ type: 'brand', ids: [id] })).status).toBe(404);
  });

  it('undoes a bulk delete all together', async () => {
    const ids = [await brand('Bulk A'), await brand('Bulk B')];
    expect((await staff.post('/api/brands/bulk-delete').send({ ids })).body).toEqual({ deleted: 2 });
    expect((await staff.post('/api/deleted/undo').send({ type: 'brand', ids })).body).toEqual({ restored: 2 });
    for (const id of ids) expect((await staff.get(`/api/brands/${id}`)).status).toBe(200);
  });

  it("refuses another user's delete and bad bodies with a 4xx, restoring nothing", async () => {
    const mine = await brand('Mine');
    const kept = await brand('Kept');
    await staff.post('/api/brands/bulk-delete').send({ ids: [mine, kept] });
    const refused = await other.post('/api/deleted/undo').send({ type: 'brand', ids: [mine] });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe(`Nothing to undo for brands: ${mine}`);
    // All or none: one id that cannot be undone leaves the other deleted too.
    const partial = await staff.post('/api/deleted/undo').send({ type: 'brand', ids: [mine, 999999] });
    expect(partial.status).toBe(404);
    expect((await staff.get(`/api/brands/${mine}`)).status).toBe(404);
    expect((await staff.post('/api/deleted/undo').send({ type: 'nope', ids: [mine] })).status).toBe(400);
    expect((await staff.post('/api/deleted/undo').send({ type: 'brand', ids: [] })).status).toBe(400);
    expect((await staff.post('/api/deleted/undo').send({ type: 'brand', ids: [mine], extra: 1 })).status).toBe(400);
    expect((await staff.post('/api/deleted/undo').set('Content-Type', 'application/json').send('[1]')).status).toBe(400);
  });
});
