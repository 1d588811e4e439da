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
    const created = await agent.post('/brands/add').type('form').send(form({ brandName: 'Stride Shoes', industryCategory: 'Footwear' }));
    expect(created.status).toBe(302);
    const id = Number(/^\/brands\/(\d+)$/.exec(created.headers.location ?? '')?.[1]);
    expect((await agent.get(`/api/brands/${id}`)).body).toMatchObject({ brandName: 'Stride Shoes', industryCategory: 'Footwear' });

    const updated = await agent.post(`/brands/${id}/edit`).type('form').send(form({ brandName: 'Stride Running' }));
    expect([updated.status, updated.headers.location]).toEqual([302, `/brands/${id}`]);
    // PUT semantics: a form field left out is stored empty.
    expect((await agent.get(`/api/brands/${id}`)).body).toMatchObject({ brandName: 'Stride Running', industryCategory: null });

    // One post never deletes: without the confirmation the page asks the spec's question, with its own Delete.
    const asked = await agent.post(`/brands/${id}`).type('form').send(form({ intent: 'delete', id: String(id) }));
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Are you sure you want to delete this brand?');
    expect(asked.text).toContain('name="confirmed" value="yes"');
    expect((await agent.get(`/api/brands/${id}`)).status).toBe(200);
    const deleted = await agent.post(`/brands/${id}`).type('form').send(form({ intent: 'delete', id: String(id), confirmed: 'yes' }));
    expect([deleted.status, deleted.headers.location]).toEqual([302, '/brands']);
    expect((await agent.get(`/api/brands/${id}`)).status).toBe(404);
  });

  it('deletes from a list page and comes back to the same search', async () => {
    const { agent } = await t.signedInAgent();
    const brand = await agent.post('/api/brands').send({ brandName: 'Listed Brand' });
    const asked = await agent.post('/brands?q=listed').type('form').send(form({ intent: 'delete', id: String(brand.body.id) }));
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('Are you sure you want to delete this brand?');
    expect((await agent.get(`/api/brands/${brand.body.id}`)).status).toBe(200);
    const res = await agent.post('/brands?q=listed').type('form').send(form({ intent: 'delete', id: String(brand.body.id), confirmed: 'yes' }));
    expect([res.status, res.headers.location]).toEqual([302, '/brands?q=listed']);
    expect((await agent.get(`/api/brands/${brand.body.id}`)).status).toBe(404);
  });

  it('answers a refused form with 400, the field message under its field and the failure text, writing nothing', async () => {
    const { agent } = await t.signedInAgent();
    const before = (await agent.get('/api/brands')).body.total;
    const res = await agent.post('/brands/add').type('form').send(form({ brandName: '  ', industryCategory: 'Kept' }));
    expect(res.status).toBe(400);
    expect(res.text).toContain('Brand name is required');
    expect(res.text).toContain('aria-invalid="true"');
    expect(res.text).toContain('Failed to create brand');
    expect((await agent.get('/api/brands')).body.total).toBe(before);
  });

  it('refuses a cross-site post and a signed-out post, writing nothing', async () => {
    const { agent } = await t.signedInAgent();
    const before = (await agent.get('/api/brands')).body.total;
    const foreign = await agent.post('/brands/add').set('Origin', 'https://evil.example').type('form').send(form({ brandName: 'Forged' }));
    expect(foreign.status).toBe(403);
    const signedOut = await t.agent().post('/brands/add').type('form').send(form({ brandName: 'Anonymous' }));
    expect(signedOut.status).toBe(401);
    expect(signedOut.text).toContain('Sign In');
    expect((await agent.get('/api/brands')).body.total).toBe(before);
  });

  it('refuses a page post that is not a urlencoded form', async () => {
    const { agent } = await t.signedInAgent();
    const res = await agent.post('/brands/add').send({ brandName: 'As JSON' });
    expect(res.status).toBe(415);
  });
});
