import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

describe('no silent lost updates', () => {
  let t: TestApp;
  let anna: Agent;
  let ben: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    anna = (await t.signedInAgent('anna@example.org')).agent;
    ben = (await t.signedInAgent('ben@example.org')).agent;
    await anna.put('/api/account').send({ firstName: 'Anna', lastName: 'Lee' });
  });
  afterAll(() => t.close());

  it('two edits of the same record from the same version: the second gets 409 naming who and when, nothing is lost', async () => {
    const brand = (await anna.post('/api/brands').send({ brandName: 'Stride', notes: 'first notes' })).body;
    // Both open the edit form at the same version.
    const version = brand.updatedAt as string;
    t.clock.advance(1_000);
    const first = await anna.put(`/api/brands/${brand.id}`).send({ brandName: 'Stride', notes: 'Anna’s notes', version });
    expect(first.status).toBe(200);
    const second = await ben.put(`/api/brands/${brand.id}`).send({ brandName: 'Stride Running', notes: 'first notes', version });
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      code: 'edit_conflict',
      message: `This brand was changed by Anna Lee at ${first.body.updatedAt} after you opened it. Reload to see their change, or save again to overwrite it.`,
    });
    expect((await ben.get(`/api/brands/${brand.id}`)).body).toMatchObject({ brandName: 'Stride', notes: 'Anna’s notes' });

    // Reloaded (the new version) or sent without a version (today's behaviour), the save goes through.
    t.clock.advance(1_000);
    expect(
      (await ben.put(`/api/brands/${brand.id}`).send({ brandName: 'Stride Running', notes: 'Anna’s notes', version: first.body.updatedAt }))
        .status,
    ).toBe(200);
    expect((await ben.put(`/api/brands/${brand.id}`).send({ brandName: 'Stride Again' })).status).toBe(200);
    expect((await ben.put(`/api/brands/${brand.id}`).send({ brandName: 'x', version: 'yesterday' })).status).toBe(400);
  });

  it('guards contacts and payments the same way', async () => {
    const brand = (await anna.post('/api/brands').send({ brandName: 'Owner' })).body.id as number;
    const contact = (await anna.post('/api/contacts').send({ firstName: 'Jo', lastName: 'Lane', entityType: 'brand', entityId: brand }))
      .body;
    const payment = (await anna.post('/api/payments').send({ entityType: 'brand', entityId: brand, description: 'Ad', amount: '5.00' }))
      .body;
    t.clock.advance(1_000);
    expect((await anna.put(`/api/contacts/${contact.id}`).send({ jobTitle: 'Director', version: contact.updatedAt })).status).toBe(200);
    const staleContact = await ben.put(`/api/contacts/${contact.id}`).send({ jobTitle: 'Owner', version: contact.updatedAt });
    expect(staleContact.status).toBe(409);
    expect(staleContact.body.message).toMatch(/^This contact was changed by Anna Lee at /);
    expect((await ben.get(`/api/contacts/${contact.id}`)).body.jobTitle).toBe('Director');

    expect((await anna.put(`/api/payments/${payment.id}`).send({ invoiceStatus: 'paid', version: payment.updatedAt })).status).toBe(200);
    const stalePayment = await ben.put(`/api/payments/${payment.id}`).send({ amount: '9.00', version: payment.updatedAt });
    expect(stalePayment.status).toBe(409);
    expect((await ben.get(`/api/payments?entityType=brand&entityId=${brand}`)).body.items[0]).toMatchObject({
      amount: '5.00',
      invoiceStatus: 'paid',
    });
  });
});
