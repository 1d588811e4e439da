import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

/** Record forms post to their own page URL (route actions), so they work before hydration and without JavaScript. */
describe('page forms without JavaScript', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

  it('creates, updates and deletes a brand by posting its pages, redirecting after each write', async () => {
    const { agent } = await t.signedInAgent();
    const created = await agent
      .post('/brands/add')
      .type('form')
      .send(form({ brandName: 'Stride Shoes', industryCategory: 'Footwear' }));
    expect(created.status).toBe(302);
    const id = Number(/^\/brands\/(\d+)$/.exec(created.headers.location ?? '')?.[1]);
    expect((await agent.get(`/api/brands/${id}`)).body).toMatchObject({ brandName: 'Stride Shoes', industryCategory: 'Footwear' });

    const updated = await agent
      .post(`/brands/${id}/edit`)
      .type('form')
      .send(form({ brandName: 'Stride Running' }));
    expect([updated.status, updated.headers.location]).toEqual([302, `/brands/${id}`]);
    // PUT semantics: a form field left out is stored empty.
    expect((await agent.get(`/api/brands/${id}`)).body).toMatchObject({ brandName: 'Stride Running', industryCategory: null });

    // One post never deletes: without the confirmation the page asks the spec's question, with its own Delete.
    const asked = await agent
      .post(`/brands/${id}`)
      .type('form')
      .send(form({ intent: 'delete', id: String(id) }));
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Are you sure you want to delete this brand?');
    expect(asked.text).toContain('name="confirmed" value="yes"');
    expect((await agent.get(`/api/brands/${id}`)).status).toBe(200);
    const deleted = await agent
      .post(`/brands/${id}`)
      .type('form')
      .send(form({ intent: 'delete', id: String(id), confirmed: 'yes' }));
    expect([deleted.status, deleted.headers.location]).toEqual([302, '/brands']);
    expect((await agent.get(`/api/brands/${id}`)).status).toBe(404);
  });

  it('deletes from a list page and comes back to the same search', async () => {
    const { agent } = await t.signedInAgent();
    const brand = await agent.post('/api/brands').send({ brandName: 'Listed Brand' });
    const asked = await agent
      .post('/brands?q=listed')
      .type('form')
      .send(form({ intent: 'delete', id: String(brand.body.id) }));
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Are you sure you want to delete this brand?');
    expect((await agent.get(`/api/brands/${brand.body.id}`)).status).toBe(200);
    const res = await agent
      .post('/brands?q=listed')
      .type('form')
      .send(form({ intent: 'delete', id: String(brand.body.id), confirmed: 'yes' }));
    expect([res.status, res.headers.location]).toEqual([302, '/brands?q=listed']);
    expect((await agent.get(`/api/brands/${brand.body.id}`)).status).toBe(404);
  });

  it('answers a refused form with 400, the field message under its field and the failure text, writing nothing', async () => {
    const { agent } = await t.signedInAgent();
    const before = (await agent.get('/api/brands')).body.total;
    const res = await agent
      .post('/brands/add')
      .type('form')
      .send(form({ brandName: '  ', industryCategory: 'Kept' }));
    expect(res.status).toBe(400);
    expect(res.text).toContain('Brand name is required');
    expect(res.text).toContain('aria-invalid="true"');
    expect(res.text).toContain('Failed to create brand');
    expect((await agent.get('/api/brands')).body.total).toBe(before);
  });

  it('refuses a cross-site post and a signed-out post, writing nothing', async () => {
    const { agent } = await t.signedInAgent();
    const before = (await agent.get('/api/brands')).body.total;
    const foreign = await agent
      .post('/brands/add')
      .set('Origin', 'https://evil.example')
      .type('form')
      .send(form({ brandName: 'Forged' }));
    expect(foreign.status).toBe(403);
    const signedOut = await t
      .agent()
      .post('/brands/add')
      .type('form')
      .send(form({ brandName: 'Anonymous' }));
    expect(signedOut.status).toBe(401);
    expect(signedOut.text).toContain('Sign In');
    expect((await agent.get('/api/brands')).body.total).toBe(before);
  });

  it('refuses a page post that is not a urlencoded form', async () => {
    const { agent } = await t.signedInAgent();
    const res = await agent.post('/brands/add').send({ brandName: 'As JSON' });
    expect(res.status).toBe(415);
  });

  it('adds and edits a contact on its owner pages by posting them, back to the owner each time', async () => {
    const { agent } = await t.signedInAgent();
    const event = (await agent.post('/api/events').send({ eventName: 'Contact Run' })).body as { id: number };
    const owner = { entityType: 'event', entityId: String(event.id) };
    const created = await agent
      .post(`/events/${event.id}/contacts/add`)
      .type('form')
      .send(form({ firstName: 'Jane', lastName: 'Doe', isPrimary: 'on', ...owner }));
    expect([created.status, created.headers.location]).toEqual([302, `/events/${event.id}?tab=contacts`]);
    const [contact] = (await agent.get(`/api/contacts/event/${event.id}`)).body as Array<{ id: number }>;
    expect(contact).toMatchObject({ firstName: 'Jane', lastName: 'Doe', isPrimary: true });

    const updated = await agent
      .post(`/events/${event.id}/contacts/${contact!.id}/edit`)
      .type('form')
      .send(form({ firstName: 'Jane', lastName: 'Smith', ...owner }));
    expect([updated.status, updated.headers.location]).toEqual([302, `/events/${event.id}?tab=contacts`]);
    // An unchecked box is not posted at all: the contact is no longer primary.
    expect((await agent.get(`/api/contacts/${contact!.id}`)).body).toMatchObject({ lastName: 'Smith', isPrimary: false });
  });

  it("answers a refused contact form with 400 and each field's message under its field, writing nothing", async () => {
    const { agent } = await t.signedInAgent();
    const brand = (await agent.post('/api/brands').send({ brandName: 'Refusing Brand' })).body as { id: number };
    const res = await agent
      .post(`/brands/${brand.id}/contacts/add`)
      .type('form')
      .send(form({ firstName: '', lastName: 'Lee', email: 'nope', entityType: 'brand', entityId: String(brand.id) }));
    expect(res.status).toBe(400);
    expect(res.text).toContain('First name is required');
    expect(res.text).toContain('Invalid email address');
    expect(res.text).toContain('Failed to create contact');
    expect(res.text).toContain('aria-invalid="true"');
    expect((await agent.get(`/api/contacts/brand/${brand.id}`)).body).toEqual([]);
  });

  it('deletes a contact from its detail page after the question, then goes to the return path', async () => {
    const { agent } = await t.signedInAgent();
    const event = (await agent.post('/api/events').send({ eventName: 'Delete Contact Run' })).body as { id: number };
    const contact = (await agent.post('/api/contacts').send({ firstName: 'Al', lastName: 'Bo', entityType: 'event', entityId: event.id }))
      .body as { id: number };
    const page = `/contacts/${contact.id}?return=${encodeURIComponent(`/events/${event.id}`)}`;
    const asked = await agent
      .post(page)
      .type('form')
      .send(form({ intent: 'delete', id: String(contact.id) }));
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Are you sure you want to delete this contact? This action cannot be undone.');
    expect(asked.text).toContain('name="confirmed" value="yes"');
    expect((await agent.get(`/api/contacts/${contact.id}`)).status).toBe(200);
    const deleted = await agent
      .post(page)
      .type('form')
      .send(form({ intent: 'delete', id: String(contact.id), confirmed: 'yes' }));
    expect([deleted.status, deleted.headers.location]).toEqual([302, `/events/${event.id}`]);
    expect((await agent.get(`/api/contacts/${contact.id}`)).status).toBe(404);
  });

  it("deletes a brand's contact and payment from its cards after each one's own question, back to the brand", async () => {
    const { agent } = await t.signedInAgent();
    const brand = (await agent.post('/api/brands').send({ brandName: 'Card Brand' })).body as { id: number };
    const contact = (await agent.post('/api/contacts').send({ firstName: 'Kim', lastName: 'Lee', entityType: 'brand', entityId: brand.id }))
      .body as { id: number };
    const payment = (
      await agent.post('/api/payments').send({ description: 'Banner', amount: '5', entityType: 'brand', entityId: brand.id })
    ).body as { id: number };

    const asked = await agent
      .post(`/brands/${brand.id}`)
      .type('form')
      .send(form({ intent: 'delete-contact', id: String(contact.id) }));
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Are you sure you want to delete this contact?');
    // A question names its intent as well as its id: asking about a contact whose id is the brand's never asks
    // about the brand.
    expect(asked.text).not.toContain('Are you sure you want to delete this brand?');
    const sameId = await agent
      .post(`/brands/${brand.id}`)
      .type('form')
      .send(form({ intent: 'delete-contact', id: String(brand.id) }));
    expect(sameId.text).not.toContain('Are you sure you want to delete this brand?');
    const deleted = await agent
      .post(`/brands/${brand.id}`)
      .type('form')
      .send(form({ intent: 'delete-contact', id: String(contact.id), confirmed: 'yes' }));
    expect([deleted.status, deleted.headers.location]).toEqual([302, `/brands/${brand.id}`]);
    expect((await agent.get(`/api/contacts/${contact.id}`)).status).toBe(404);

    const askedPayment = await agent
      .post(`/brands/${brand.id}`)
      .type('form')
      .send(form({ intent: 'delete-payment', id: String(payment.id) }));
    expect(askedPayment.text).toContain('Are you sure you want to delete this payment?');
    const deletedPayment = await agent
      .post(`/brands/${brand.id}`)
      .type('form')
      .send(form({ intent: 'delete-payment', id: String(payment.id), confirmed: 'yes' }));
    expect([deletedPayment.status, deletedPayment.headers.location]).toEqual([302, `/brands/${brand.id}`]);
    expect((await agent.get(`/api/payments?entityType=brand&entityId=${brand.id}`)).body).toMatchObject({ items: [], totalAmount: '0.00' });
    expect((await agent.get(`/api/brands/${brand.id}`)).status).toBe(200);
  });
});
