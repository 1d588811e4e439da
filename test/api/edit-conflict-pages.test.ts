import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
/** The hidden version field a page's form carries. */
const versionIn = (html: string) => /<input type="hidden" name="version" value="([^"]+)"/.exec(html)?.[1];
const valueOf = (html: string, name: string) => new RegExp(`<input[^>]*name="${name}"[^>]*value="([^"]*)"`).exec(html)?.[1];

/** Issue 13, point 6, without JavaScript: the record edit pages carry their version and answer a conflict. */
describe('record edit pages: no silent lost updates', () => {
  let t: TestApp;
  let anna: Agent;
  let ben: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    anna = (await t.signedInAgent('anna@example.org')).agent;
    ben = (await t.signedInAgent('ben@example.org')).agent;
    await anna.put('/api/account').send({ firstName: 'Anna', lastName: 'Lee' });
  });
  afterAll(async () => t.close());

  it('the edit form carries the version it was loaded from, and a save from it goes through', async () => {
    const brand = (await anna.post('/api/brands').send({ brandName: 'Carried' })).body as { id: number; updatedAt: string };
    const page = await anna.get(`/brands/${brand.id}/edit`);
    expect(versionIn(page.text)).toBe(brand.updatedAt);
    t.clock.advance(1_000);
    const saved = await anna
      .post(`/brands/${brand.id}/edit`)
      .type('form')
      .send(form({ brandName: 'Carried On', version: brand.updatedAt }));
    expect([saved.status, saved.headers.location]).toEqual([302, `/brands/${brand.id}`]);
  });

  it('a stale save keeps what was typed, names who changed it and when; Reload shows their change, Save anyway overwrites', async () => {
    const brand = (await anna.post('/api/brands').send({ brandName: 'Stride', notes: 'first notes' })).body as { id: number };
    // Both open the edit page at the same version.
    const opened = versionIn((await ben.get(`/brands/${brand.id}/edit`)).text)!;
    expect(versionIn((await anna.get(`/brands/${brand.id}/edit`)).text)).toBe(opened);
    t.clock.advance(1_000);
    const first = await anna
      .post(`/brands/${brand.id}/edit`)
      .type('form')
      .send(form({ brandName: 'Stride', notes: 'Annas notes', version: opened }));
    expect(first.status).toBe(302);
    const annaSaved = (await anna.get(`/api/brands/${brand.id}`)).body as { updatedAt: string };

    t.clock.advance(1_000);
    const stale = await ben
      .post(`/brands/${brand.id}/edit`)
      .type('form')
      .send(form({ brandName: 'Stride Running', notes: 'Bens notes', version: opened }));
    expect(stale.status).toBe(409);
    expect(stale.text).toContain(
      `This brand was changed by Anna Lee at ${annaSaved.updatedAt} after you opened it. Reload to see their change, or save again to overwrite it.`,
    );
    // What Ben typed is still in the form, which now carries the current version; nothing was written.
    expect(valueOf(stale.text, 'brandName')).toBe('Stride Running');
    expect(stale.text).toContain('Bens notes</textarea>');
    expect(versionIn(stale.text)).toBe(annaSaved.updatedAt);
    expect(stale.text).toMatch(new RegExp(`<a[^>]*href="/brands/${brand.id}/edit"[^>]*>Reload</a>`));
    expect(stale.text).toMatch(/<button[^>]*type="submit"[^>]*>Save anyway<\/button>/);
    expect((await ben.get(`/api/brands/${brand.id}`)).body).toMatchObject({ brandName: 'Stride', notes: 'Annas notes' });

    // Reload: the edit page again, showing Anna's change.
    const reloaded = await ben.get(`/brands/${brand.id}/edit`);
    expect(valueOf(reloaded.text, 'brandName')).toBe('Stride');
    expect(reloaded.text).toContain('Annas notes</textarea>');
    expect(reloaded.text).not.toContain('Save anyway');

    // Save anyway: the same typed values posted with the version the conflict answered.
    const overwritten = await ben
      .post(`/brands/${brand.id}/edit`)
      .type('form')
      .send(form({ brandName: 'Stride Running', notes: 'Bens notes', version: versionIn(stale.text)! }));
    expect([overwritten.status, overwritten.headers.location]).toEqual([302, `/brands/${brand.id}`]);
    expect((await ben.get(`/api/brands/${brand.id}`)).body).toMatchObject({ brandName: 'Stride Running', notes: 'Bens notes' });
  });

  it('a post without a version keeps the old behaviour, and a malformed one is refused with 400', async () => {
    const brand = (await anna.post('/api/brands').send({ brandName: 'Unversioned' })).body as { id: number };
    t.clock.advance(1_000);
    await anna.put(`/api/brands/${brand.id}`).send({ brandName: 'Changed meanwhile' });
    const saved = await ben
      .post(`/brands/${brand.id}/edit`)
      .type('form')
      .send(form({ brandName: 'No version' }));
    expect(saved.status).toBe(302);
    const bad = await ben
      .post(`/brands/${brand.id}/edit`)
      .type('form')
      .send(form({ brandName: 'Bad version', version: 'yesterday' }));
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('version must be the updatedAt the form was loaded with');
  });
  it('the contact edit page answers a stale save the same way, keeping what was typed', async () => {
    const event = (await anna.post('/api/events').send({ eventName: 'Contact Conflict Run' })).body as { id: number };
    const owner = { entityType: 'event', entityId: String(event.id) };
    const contact = (await anna.post('/api/contacts').send({ firstName: 'Jo', lastName: 'Lane', entityType: 'event', entityId: event.id }))
      .body as { id: number };
    const editPage = `/events/${event.id}/contacts/${contact.id}/edit`;
    const opened = versionIn((await ben.get(editPage)).text)!;
    t.clock.advance(1_000);
    const annas = await anna
      .post(editPage)
      .type('form')
      .send(form({ firstName: 'Jo', lastName: 'Lane', jobTitle: 'Director', version: opened, ...owner }));
    expect(annas.status).toBe(302);
    const current = (await anna.get(`/api/contacts/${contact.id}`)).body as { updatedAt: string };

    t.clock.advance(1_000);
    const stale = await ben
      .post(editPage)
      .type('form')
      .send(form({ firstName: 'Jo', lastName: 'Lane', jobTitle: 'Owner', version: opened, ...owner }));
    expect(stale.status).toBe(409);
    expect(stale.text).toContain(`This contact was changed by Anna Lee at ${current.updatedAt} after you opened it.`);
    expect(valueOf(stale.text, 'jobTitle')).toBe('Owner');
    expect(versionIn(stale.text)).toBe(current.updatedAt);
    expect(stale.text).toMatch(new RegExp(`<a[^>]*href="${editPage}"[^>]*>Reload</a>`));
    expect((await ben.get(`/api/contacts/${contact.id}`)).body.jobTitle).toBe('Director');

    expect(valueOf((await ben.get(editPage)).text, 'jobTitle')).toBe('Director');
    const overwritten = await ben
      .post(editPage)
      .type('form')
      .send(form({ firstName: 'Jo', lastName: 'Lane', jobTitle: 'Owner', version: versionIn(stale.text)!, ...owner }));
    expect(overwritten.status).toBe(302);
    expect((await ben.get(`/api/contacts/${contact.id}`)).body.jobTitle).toBe('Owner');
  });
});
