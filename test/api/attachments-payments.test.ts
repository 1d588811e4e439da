import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertOwner, ownerTotal } from './attachments-fixtures.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

describe('payments API', () => {
  let t: TestApp;
  let agent: Agent;

  beforeAll(async () => {
    t = await createTestApp();
    ({ agent } = await t.signedInAgent());
  });
  afterAll(async () => t.close());

  it('keeps the owner total equal to the sum of its payments through create, edit and delete (0.10 + 0.20 = 0.30)', async () => {
    const eventId = await insertOwner(t.database.db, 'event');
    const owner = { entityType: 'event', entityId: eventId };
    const a = await agent.post('/api/payments').send({ ...owner, description: 'Banner', amount: '0.10' });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ amount: '0.10', invoiceStatus: 'pending', paymentDate: null, createdAt: '2026-11-21T09:00:00.000Z' });
    const b = await agent.post('/api/payments').send({ ...owner, description: 'Newsletter', amount: 0.2, paymentDate: '2026-11-01' });
    expect(b.body).toMatchObject({ amount: '0.20', paymentDate: '2026-11-01' });
    expect(await ownerTotal(t.database.db, 'event', eventId)).toBe('0.30');
    let list = await agent.get(`/api/payments?entityType=event&entityId=${eventId}`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 2, totalAmount: '0.30' });
    expect(list.body.items.map((p: { id: number }) => p.id)).toEqual([b.body.id, a.body.id]);

    const edited = await agent.put(`/api/payments/${b.body.id}`).send({ amount: '1.05', invoiceStatus: 'paid' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ amount: '1.05', invoiceStatus: 'paid', description: 'Newsletter' });
    expect(await ownerTotal(t.database.db, 'event', eventId)).toBe('1.15');

    expect((await agent.delete(`/api/payments/${a.body.id}`)).status).toBe(204);
    expect(await ownerTotal(t.database.db, 'event', eventId)).toBe('1.05');
    list = await agent.get(`/api/payments?entityType=event&entityId=${eventId}`);
    expect(list.body).toMatchObject({ total: 1, totalAmount: '1.05' });
    expect((await agent.delete(`/api/payments/${a.body.id}`)).status).toBe(404);
  });

  it('keeps the right total column for every record type, and both owners in step when a payment moves', async () => {
    const brand = await insertOwner(t.database.db, 'brand');
    const pro = await insertOwner(t.database.db, 'professional');
    const club = await insertOwner(t.database.db, 'runclub');
    const media = await insertOwner(t.database.db, 'media');
    const influencer = await insertOwner(t.database.db, 'influencer');
    const pay = (entityType: string, entityId: number, amount: string) =>
      agent.post('/api/payments').send({ entityType, entityId, description: 'x', amount });
    expect((await pay('brand', brand, '99999.99')).status).toBe(201);
    const moving = await pay('professional', pro, '12.5');
    expect((await pay('runclub', club, '7')).status).toBe(201);
    expect((await pay('media', media, '3.33')).status).toBe(201);
    expect((await pay('influencer', influencer, '4.44')).status).toBe(201);
    expect(await ownerTotal(t.database.db, 'brand', brand)).toBe('99999.99');
    expect(await ownerTotal(t.database.db, 'professional', pro)).toBe('12.50');
    expect(await ownerTotal(t.database.db, 'runclub', club)).toBe('7.00');
    const moved = await agent.put(`/api/payments/${moving.body.id}`).send({ entityType: 'runclub', entityId: club });
    expect(moved.status).toBe(200);
    expect(await ownerTotal(t.database.db, 'professional', pro)).toBe('0.00');
    expect(await ownerTotal(t.database.db, 'runclub', club)).toBe('19.50');
    expect((await agent.get(`/api/payments?entityType=media&entityId=${media}`)).body.totalAmount).toBe('3.33');
  });

  it('keeps totals exact under concurrent payments', async () => {
    const eventId = await insertOwner(t.database.db, 'event');
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        agent.post('/api/payments').send({ entityType: 'event', entityId: eventId, description: 'dime', amount: '0.10' }),
      ),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(await ownerTotal(t.database.db, 'event', eventId)).toBe('1.00');
  });

  it('validates description, amount, dates, status and owner', async () => {
    const brand = await insertOwner(t.database.db, 'brand');
    const owner = { entityType: 'brand', entityId: brand };
    const cases: Array<[Record<string, unknown>, number, string?]> = [
      [{ ...owner, amount: '1.00' }, 400, 'Description is required'],
      [{ ...owner, description: ' ', amount: '1.00' }, 400, 'Description is required'],
      [{ ...owner, description: 'x' }, 400, 'Amount is required'],
      [{ ...owner, description: 'x', amount: '' }, 400, 'Amount is required'],
      [{ ...owner, description: 'x', amount: '1.234' }, 400],
      [{ ...owner, description: 'x', amount: '123456789.00' }, 400],
      [{ ...owner, description: 'x', amount: '-5' }, 400],
      [{ ...owner, description: 'x', amount: '1e3' }, 400],
      [{ ...owner, description: 'x', amount: ['1'] }, 400],
      [{ ...owner, description: 'x', amount: '1', paymentDate: '2026-02-30' }, 400],
      [{ ...owner, description: 'x', amount: '1', paymentDate: '21/11/2026' }, 400],
      [{ ...owner, description: 'x', amount: '1', startDate: '2026-05-02', endDate: '2026-05-01' }, 400],
      [{ ...owner, description: 'x', amount: '1', invoiceStatus: 'bogus' }, 400],
      [{ ...owner, description: 'x', amount: '1', extra: true }, 400],
      [{ entityType: 'planet', entityId: 1, description: 'x', amount: '1' }, 400],
      [{ entityType: 'brand', entityId: 987654, description: 'x', amount: '1' }, 404, 'Brand not found'],
    ];
    for (const [body, status, message] of cases) {
      const res = await agent.post('/api/payments').send(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (message) expect(res.body.message).toBe(message);
    }
    expect(await ownerTotal(t.database.db, 'brand', brand)).toBe('0.00');
  });

  it('refuses a total beyond DECIMAL(10,2) without changing anything', async () => {
    const brand = await insertOwner(t.database.db, 'brand');
    const owner = { entityType: 'brand', entityId: brand, description: 'big' };
    expect((await agent.post('/api/payments').send({ ...owner, amount: '99999999.99' })).status).toBe(201);
    const over = await agent.post('/api/payments').send({ ...owner, amount: '0.01' });
    expect(over.status).toBe(400);
    expect((await agent.get(`/api/payments?entityType=brand&entityId=${brand}`)).body).toMatchObject({
      total: 1,
      totalAmount: '99999999.99',
    });
  });

  it('lists with checked query parameters', async () => {
    expect((await agent.get('/api/payments?entityType=event')).status).toBe(400);
    expect((await agent.get('/api/payments?entityType=event&entityId=abc')).status).toBe(400);
    expect((await agent.get('/api/payments?limit=100000')).status).toBe(400);
    expect((await agent.get('/api/payments?entityType=event&entityId=99999')).status).toBe(404);
    const all = await agent.get('/api/payments?limit=1');
    expect(all.status).toBe(200);
    expect(all.body.items).toHaveLength(1);
    expect(all.body.total).toBeGreaterThan(1);
  });
});
