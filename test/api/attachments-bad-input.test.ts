import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertOwner, ownerTotal } from './attachments-fixtures.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

/** Odd values of every kind a client could send in a JSON field. */
const oddValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 400 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\u2028',
    '🏃‍♀️',
    "'; DROP TABLE contacts; --",
    '__proto__',
    '1e309',
    '-0',
    '0.001',
    '99999999999',
    'x'.repeat(5000),
  ),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.object({ maxDepth: 2 }),
);

describe('attachments API under arbitrary input', () => {
  let t: TestApp;
  let agent: Agent;
  let eventId: number;

  beforeAll(async () => {
    t = await createTestApp();
    ({ agent } = await t.signedInAgent());
    eventId = await insertOwner(t.database.db, 'event');
  });
  afterAll(async () => t.close());

  const contactFields = [
    'firstName',
    'lastName',
    'jobTitle',
    'email',
    'phone',
    'notes',
    'entityType',
    'entityId',
    'isPrimary',
    'mailchimpTags',
    'constructor',
  ];
  const paymentFields = [
    'entityType',
    'entityId',
    'description',
    'amount',
    'paymentDate',
    'startDate',
    'endDate',
    'invoiceStatus',
    'paymentType',
    'notes',
  ];

  it('never answers 5xx to a contact body, and keeps the database consistent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...contactFields), oddValue, { maxKeys: 6 }), async (fields) => {
        const body = { firstName: 'A', lastName: 'B', entityType: 'event', entityId: eventId, ...fields };
        const res = await agent.post('/api/contacts').send(body);
        expect(res.status, JSON.stringify(body).slice(0, 300)).toBeLessThan(500);
        if (res.status === 201) expect((await agent.get(`/api/contacts/${res.body.id}`)).body).toEqual(res.body);
      }),
      { numRuns: 60 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never answers 5xx to a payment body, and the stored total stays the sum of the payments', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...paymentFields), oddValue, { maxKeys: 5 }), async (fields) => {
        const body = { entityType: 'event', entityId: eventId, description: 'x', amount: '1.00', ...fields };
        const res = await agent.post('/api/payments').send(body);
        expect(res.status, JSON.stringify(body).slice(0, 300)).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
    const list = await agent.get(`/api/payments?entityType=event&entityId=${eventId}&limit=500`);
    expect(await ownerTotal(t.database.db, 'event', eventId)).toBe(list.body.totalAmount);
  });

  it('never answers 5xx to odd path and query values', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 }), async (a, b) => {
        const seg = encodeURIComponent(a) || 'x';
        for (const url of [
          `/api/contacts/${seg}`,
          `/api/contacts/${seg}/${encodeURIComponent(b) || 'y'}`,
          `/api/files/${seg}/${encodeURIComponent(b) || 'y'}`,
          `/api/uploads/${seg}`,
          `/api/payments?entityType=${encodeURIComponent(a)}&entityId=${encodeURIComponent(b)}&limit=${encodeURIComponent(b)}`,
        ]) {
          const res = await agent.get(url);
          expect(res.status, url).toBeLessThan(500);
        }
        expect((await agent.put(`/api/contacts/${seg}`).send({ firstName: a })).status).toBeLessThan(500);
        expect((await agent.delete(`/api/payments/${seg}`)).status).toBeLessThan(500);
      }),
      { numRuns: 40 },
    );
  });
});
