import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertOwner } from './attachments-fixtures.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

/** The SQL a request runs, to count the contact pages' reads. */
function recordQueries(t: TestApp): { sql: string[]; stop: () => void } {
  const sql: string[] = [];
  const listener = (query: { sql: string }) => sql.push(query.sql);
  t.database.db.on('query', listener);
  return { sql, stop: () => t.database.db.off('query', listener) };
}
/** The page's own reads: not the session check, nor the header's unread-notification and due-task counts. */
const readsOf = (sql: string[]) => sql.filter((query) => !/from [`"]?(sessions|notifications|tasks)\b/i.test(query));

describe('the contact pages name the owner (issue 12 point 2)', () => {
  let t: TestApp;
  let agent: Agent;
  let eventId: number;
  let brandId: number;
  let contactId: number;
  let brandContactId: number;

  beforeAll(async () => {
    t = await createTestApp();
    ({ agent } = await t.signedInAgent());
    eventId = await insertOwner(t.database.db, 'event', 'Sydney Harbour Half Marathon');
    brandId = await insertOwner(t.database.db, 'brand', 'Stride & Co');
    const created = await agent.post('/api/contacts').send({ firstName: 'Jane', lastName: 'Doe', entityType: 'event', entityId: eventId });
    expect(created.status).toBe(201);
    contactId = created.body.id as number;
    const brandContact = await agent
      .post('/api/contacts')
      .send({ firstName: 'Al', lastName: 'Bo', entityType: 'brand', entityId: brandId });
    brandContactId = brandContact.body.id as number;
  });
  afterAll(async () => t.close());

  it('GET /api/contacts/:id?include=owner adds the owner; without it the contact reads as before', async () => {
    const withOwner = await agent.get(`/api/contacts/${contactId}?include=owner`);
    expect(withOwner.status).toBe(200);
    expect(withOwner.body).toMatchObject({
      id: contactId,
      firstName: 'Jane',
      owner: { type: 'event', id: eventId, name: 'Sydney Harbour Half Marathon' },
    });
    const brand = await agent.get(`/api/contacts/${brandContactId}?include=owner`);
    expect(brand.body.owner).toEqual({ type: 'brand', id: brandId, name: 'Stride & Co' });
    const plain = await agent.get(`/api/contacts/${contactId}`);
    expect(plain.status).toBe(200);
    expect(plain.body.owner).toBeUndefined();
    const { owner: _owner, ...contact } = withOwner.body as Record<string, unknown>;
    expect(contact).toEqual(plain.body);
  });

  it('answers 400 for an unknown include and 404 for a missing contact', async () => {
    const bad = await agent.get(`/api/contacts/${contactId}?include=everything`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('include must be owner');
    const missing = await agent.get('/api/contacts/987654?include=owner');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Contact not found');
  });

  it("GET /api/contacts/:type/:id/owner names the owner; a missing one is the owner's 404, a bad type 400", async () => {
    expect((await agent.get(`/api/contacts/event/${eventId}/owner`)).body).toEqual({
      type: 'event',
      id: eventId,
      name: 'Sydney Harbour Half Marathon',
    });
    const missing = await agent.get('/api/contacts/media/987654/owner');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Media outlet not found');
    const badType = await agent.get(`/api/contacts/influencer/${eventId}/owner`);
    expect(badType.status).toBe(400);
    expect((await agent.get('/api/contacts/event/abc/owner')).status).toBe(404);
  });

  it('paints "Contact of" the owner on the contact detail page, keeping Back, reading the contact and owner in one query', async () => {
    const queries = recordQueries(t);
    const res = await agent.get(`/contacts/${contactId}?return=%2Fcontacts`);
    queries.stop();
    expect(res.status).toBe(200);
    expect(res.text).toMatch(
      new RegExp(`data-testid="contact-of">Contact of <a [^>]*href="/events/${eventId}"[^>]*>Sydney Harbour Half Marathon`),
    );
    expect(res.text).toMatch(/href="\/contacts"[^>]*><span aria-hidden="true">← <\/span>Back/);
    // The history panel reads in the browser; the page's own read is one query joining the owner.
    expect(readsOf(queries.sql).filter((sql) => /contacts/i.test(sql))).toHaveLength(1);
  });

  it('paints the owner on the contact edit page and the owner-scoped add and edit pages', async () => {
    const edit = await agent.get(`/contacts/${contactId}/edit`);
    expect(edit.status).toBe(200);
    expect(edit.text).toContain('Sydney Harbour Half Marathon');
    expect(edit.text).toContain('data-testid="contact-of"');

    const queries = recordQueries(t);
    const add = await agent.get(`/brands/${brandId}/contacts/add`);
    queries.stop();
    expect(add.status).toBe(200);
    expect(add.text).toMatch(new RegExp(`data-testid="contact-of">Contact of <a [^>]*href="/brands/${brandId}"[^>]*>Stride &amp; Co`));
    // One read of the owner's name, and none of its contacts.
    expect(readsOf(queries.sql)).toHaveLength(1);

    const ownerEdit = await agent.get(`/brands/${brandId}/contacts/${brandContactId}/edit`);
    expect(ownerEdit.status).toBe(200);
    expect(ownerEdit.text).toContain('Stride &amp; Co');

    // A contact of another owner is still not found there, and a missing owner's add page is its 404.
    expect((await agent.get(`/brands/${brandId}/contacts/${contactId}/edit`)).status).toBe(404);
    const missingOwner = await agent.get('/events/987654/contacts/add');
    expect(missingOwner.status).toBe(404);
    expect(missingOwner.text).toContain('Event not found');
  });
});
