import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertOwner } from './attachments-fixtures.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

describe('contacts API', () => {
  let t: TestApp;
  let agent: Agent;
  let eventId: number;
  let brandId: number;

  const base = () => ({ firstName: 'Jane', lastName: 'Doe', entityType: 'event', entityId: eventId });

  beforeAll(async () => {
    t = await createTestApp();
    ({ agent } = await t.signedInAgent());
    eventId = await insertOwner(t.database.db, 'event');
    brandId = await insertOwner(t.database.db, 'brand');
  });
  afterAll(async () => t.close());

  it('creates, reads, lists, updates and deletes a contact', async () => {
    const created = await agent.post('/api/contacts').send({
      ...base(),
      jobTitle: 'Race director',
      email: 'jane@example.org',
      phone: '+61 400 000 000',
      notes: 'Call after 5',
      mailchimpTags: ' runners, , vip,runners ,VIP ',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      firstName: 'Jane',
      lastName: 'Doe',
      jobTitle: 'Race director',
      email: 'jane@example.org',
      entityType: 'event',
      entityId: eventId,
      isPrimary: false,
      mailchimpTags: ['runners', 'vip', 'VIP'],
      createdAt: '2026-11-21T09:00:00.000Z',
    });
    const id = created.body.id as number;
    expect((await agent.get(`/api/contacts/${id}`)).body.email).toBe('jane@example.org');
    const list = await agent.get(`/api/contacts/event/${eventId}`);
    expect(list.status).toBe(200);
    expect(list.body.map((c: { id: number }) => c.id)).toContain(id);

    const updated = await agent
      .put(`/api/contacts/${id}`)
      .send({ ...base(), lastName: 'Smith', mailchimpTags: ['a', ' b ', '', 'a', 'c,d'], email: '' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ lastName: 'Smith', mailchimpTags: ['a', 'b', 'c', 'd'], email: null, jobTitle: 'Race director' });

    expect((await agent.delete(`/api/contacts/${id}`)).status).toBe(204);
    expect((await agent.get(`/api/contacts/${id}`)).status).toBe(404);
    expect((await agent.delete(`/api/contacts/${id}`)).status).toBe(404);
  });

  it('refuses a missing first or last name and a malformed email with the spec messages', async () => {
    const noFirst = await agent.post('/api/contacts').send({ ...base(), firstName: '  ' });
    expect(noFirst.status).toBe(400);
    expect(noFirst.body).toMatchObject({ message: 'First name is required', code: 'validation_failed' });
    const missingLast = await agent.post('/api/contacts').send({ firstName: 'A', entityType: 'event', entityId: eventId });
    expect(missingLast.status).toBe(400);
    expect(missingLast.body.message).toBe('Last name is required');
    const badEmail = await agent.post('/api/contacts').send({ ...base(), email: 'not-an-email' });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.issues[0].path).toBe('email');
    const update = await agent.post('/api/contacts').send(base());
    const badUpdate = await agent.put(`/api/contacts/${update.body.id}`).send({ lastName: '' });
    expect(badUpdate.status).toBe(400);
    expect(badUpdate.body.message).toBe('Last name is required');
  });

  it('refuses unknown owner types, missing owners, unknown fields and odd values with 4xx', async () => {
    expect((await agent.post('/api/contacts').send({ ...base(), entityType: 'influencer' })).status).toBe(400);
    const missing = await agent.post('/api/contacts').send({ ...base(), entityId: 999_999 });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Event not found');
    expect((await agent.get('/api/contacts/brand/999999')).status).toBe(404);
    expect((await agent.get('/api/contacts/planet/1')).status).toBe(400);
    expect((await agent.get('/api/contacts/abc')).status).toBe(404);
    expect((await agent.post('/api/contacts').send({ ...base(), role: 'x' })).status).toBe(400);
    expect((await agent.post('/api/contacts').send({ ...base(), firstName: { $ne: '' } })).status).toBe(400);
    expect((await agent.post('/api/contacts').send({ ...base(), entityId: [eventId] })).status).toBe(400);
    expect((await agent.post('/api/contacts').send([base()])).status).toBe(400);
    expect((await agent.post('/api/contacts').send({ ...base(), firstName: 'x'.repeat(101) })).status).toBe(400);
  });

  it('keeps 4-byte characters byte for byte', async () => {
    const created = await agent.post('/api/contacts').send({ ...base(), firstName: 'Zoë 🏃‍♀️', notes: 'line\u2028two' });
    expect(created.status).toBe(201);
    expect((await agent.get(`/api/contacts/${created.body.id}`)).body).toMatchObject({ firstName: 'Zoë 🏃‍♀️', notes: 'line\u2028two' });
  });

  it('keeps one primary contact per owner: making one primary clears the others', async () => {
    const owner = await insertOwner(t.database.db, 'brand', 'primary brand');
    const body = { firstName: 'P', lastName: 'One', entityType: 'brand', entityId: owner };
    const first = await agent.post('/api/contacts').send({ ...body, isPrimary: true });
    const second = await agent.post('/api/contacts').send({ ...body, lastName: 'Two', isPrimary: true });
    const other = await agent.post('/api/contacts').send({ ...body, entityId: brandId, isPrimary: true });
    let list = (await agent.get(`/api/contacts/brand/${owner}`)).body as Array<{ id: number; isPrimary: boolean }>;
    expect(list.filter((c) => c.isPrimary).map((c) => c.id)).toEqual([second.body.id]);
    await agent.put(`/api/contacts/${first.body.id}`).send({ isPrimary: true });
    list = (await agent.get(`/api/contacts/brand/${owner}`)).body;
    expect(list.filter((c) => c.isPrimary).map((c) => c.id)).toEqual([first.body.id]);
    // Another owner's primary is untouched.
    expect((await agent.get(`/api/contacts/${other.body.id}`)).body.isPrimary).toBe(true);
  });

  it('leaves exactly one primary after many concurrent primary changes', async () => {
    const owner = await insertOwner(t.database.db, 'event', 'busy event');
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push(
        (await agent.post('/api/contacts').send({ firstName: 'C', lastName: String(i), entityType: 'event', entityId: owner })).body.id,
      );
    }
    const results = await Promise.all([
      ...ids.map((id) => agent.put(`/api/contacts/${id}`).send({ isPrimary: true })),
      ...[1, 2, 3].map((i) =>
        agent.post('/api/contacts').send({ firstName: 'New', lastName: String(i), entityType: 'event', entityId: owner, isPrimary: true }),
      ),
    ]);
    expect(results.map((r) => r.status).every((s) => s === 200 || s === 201)).toBe(true);
    const rows = await t.database.db('contacts').where({ entityType: 'event', entityId: owner });
    expect(rows).toHaveLength(9);
    expect(rows.filter((row) => Boolean(Number(row.isPrimary)))).toHaveLength(1);
  });

  it('keeps one primary per owner when several owners change at once', async () => {
    const owners = [
      await insertOwner(t.database.db, 'runclub', 'club a'),
      await insertOwner(t.database.db, 'runclub', 'club b'),
      await insertOwner(t.database.db, 'runclub', 'club c'),
    ];
    const ids = new Map<number, number[]>();
    for (const owner of owners) {
      const created: number[] = [];
      for (let i = 0; i < 3; i++)
        created.push(
          (await agent.post('/api/contacts').send({ firstName: 'R', lastName: String(i), entityType: 'runclub', entityId: owner })).body.id,
        );
      ids.set(owner, created);
    }
    const results = await Promise.all(
      owners.flatMap((owner) => [
        ...ids.get(owner)!.map((id) => agent.put(`/api/contacts/${id}`).send({ isPrimary: true })),
        agent.post('/api/contacts').send({ firstName: 'N', lastName: 'N', entityType: 'runclub', entityId: owner, isPrimary: true }),
      ]),
    );
    expect(results.map((r) => r.status).filter((s) => s !== 200 && s !== 201)).toEqual([]);
    for (const owner of owners) {
      const rows = await t.database.db('contacts').where({ entityType: 'runclub', entityId: owner });
      expect(rows.filter((row) => Boolean(Number(row.isPrimary)))).toHaveLength(1);
    }
  });

  it('requires a signed-in user and our origin', async () => {
    expect((await t.agent().get(`/api/contacts/event/${eventId}`)).status).toBe(401);
    const foreign = await agent.post('/api/contacts').set('Origin', 'https://evil.example').send(base());
    expect(foreign.status).toBe(403);
  });
});
