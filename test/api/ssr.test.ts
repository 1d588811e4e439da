import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@services/users/service.js';
import { scriptSafeJson } from '@ssr/hydration.js';
import { withTransaction } from '@db/transaction.js';
import { insertRecordRow } from '@services/records/writes.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app.js';

const ATTACK = '</script><script>alert(1)</script>\u2028&';

function hydrationData(html: string): { loaderData: Record<string, unknown> } {
  const match = /<script type="application\/json" id="router-hydration-data">(.*?)<\/script>/s.exec(html);
  if (!match) throw new Error('no hydration data in the page');
  return JSON.parse(match[1]!) as { loaderData: Record<string, unknown> };
}

describe('server rendering', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('shows first-run set-up at any URL while no user exists', async () => {
    const res = await t.agent().get('/events/12');
    expect(res.status).toBe(200);
    expect(res.text).toContain('Create the first admin account');
    expect(res.text).not.toContain('Sign In');
  });

  it('shows only the sign-in screen at any URL to a signed-out visitor', async () => {
    await createUser(t.ctx, { email: 'ssr@example.org', password: TEST_PASSWORD, firstName: ATTACK, lastName: 'X' });
    for (const path of ['/', '/brands', '/events/5/edit', '/no/such/page']) {
      const res = await t.agent().get(path);
      expect(res.status).toBe(200);
      expect(res.text).toContain('Sign In');
      expect(res.text).toContain('Access is limited to authorized users only.');
      expect(res.text).not.toContain('Dashboard');
    }
  });

  it('renders the signed-in layout under a CSP that refuses every inline script, and has none itself', async () => {
    const { agent } = await t.signedInAgent('ssr@example.org');
    const res = await agent.get('/');
    expect(res.status).toBe(200);
    const csp = res.headers['content-security-policy'] as string;
    // No 'unsafe-inline', no nonce: an injected inline script never runs.
    expect(
      csp
        .split(';')
        .map((directive) => directive.trim())
        .filter((directive) => directive.startsWith('script-src')),
    ).toEqual(["script-src 'self'"]);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    const scripts = [...res.text.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    // Every script that runs comes from a file; the loader data travels in a JSON block, which never runs.
    const running = scripts.filter((attrs) => !attrs.includes('type="application/json"'));
    expect(running.length).toBeGreaterThan(0);
    expect(scripts.length - running.length).toBe(1);
    for (const attrs of running) expect(attrs).toMatch(/ src="\/assets\//);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.text).toContain('ssr@example.org');
    for (const label of ['Dashboard', 'Events', 'Professionals', 'Run Clubs', 'Brands', 'Media', 'Influencers', 'Integrations']) {
      expect(res.text).toContain(`>${label}</a>`);
    }
    // Private pages are never served from a cache without asking.
    expect(res.headers['cache-control']).toBe('private, no-cache');
  });

  it('keeps JSON answers out of every cache', async () => {
    const { agent } = await t.signedInAgent('ssr@example.org');
    const res = await agent.get('/api/events');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['content-security-policy']).toContain("script-src 'self';");
  });

  it('escapes hydration data so a stored </script> cannot break out, and the data round-trips', async () => {
    const { agent } = await t.signedInAgent('ssr@example.org');
    const res = await agent.get('/');
    expect(res.text).not.toContain('</script><script>alert(1)');
    expect(res.text).not.toContain('\u2028');
    const data = hydrationData(res.text);
    const root = data.loaderData.root as { user: { firstName: string } };
    expect(root.user.firstName).toBe(ATTACK);
  });

  it('escapes every character that could end a script or a line', () => {
    const text = scriptSafeJson({ v: '<>&\u2028\u2029' });
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual({ v: '<>&\u2028\u2029' });
  });

  it('renders the 404 page with its texts and a 404 status', async () => {
    const { agent } = await t.signedInAgent('ssr@example.org');
    const res = await agent.get('/no/such/page');
    expect(res.status).toBe(404);
    expect(res.text).toContain('404 Page Not Found');
    expect(res.text).toContain('Did you forget to add the page to the router?');
  });

  it("renders the dashboard counts on the server, from the same data /api/stats serves (inside the dashboard's one read)", async () => {
    const { agent } = await t.signedInAgent('ssr@example.org');
    const now = '2026-11-21 09:00:00.000';
    for (const mediaName of ['Run Weekly', 'Trail Talk']) {
      await withTransaction({ db: t.database.db }, (trx) => insertRecordRow(trx, 'media', { mediaName, createdAt: now, updatedAt: now }));
    }
    const stats = (await agent.get('/api/stats')).body;
    expect(stats).toMatchObject({ media: 2, events: 0, runClubs: 0 });
    const page = await agent.get('/');
    expect(hydrationData(page.text).loaderData).toMatchObject({ '0-0-0': { stats } });
    expect(page.text).toMatch(/data-testid="stat-media"[^>]*><span class="stat-label">Media<\/span><span class="stat-value">2<\/span>/);
  });

  it('formats for the locale the browser asked for', async () => {
    const res = await t.agent().get('/api/session').set('Accept-Language', 'de-DE,de;q=0.9');
    expect(res.body.locale).toBe('de-DE');
    const fallback = await t.agent().get('/api/session').set('Accept-Language', 'zz-invalid-@@');
    expect(fallback.body.locale).toBe('en-AU');
  });
});

describe('time zone from the browser', () => {
  it('uses a valid zone cookie and falls back to UTC for a bad or malformed one', async () => {
    const t = await createTestApp();
    try {
      const zone = async (cookie: string) => (await t.agent().get('/api/session').set('Cookie', cookie)).body.timeZone as string;
      expect(await zone('tz=Australia%2FPerth')).toBe('Australia/Perth');
      expect(await zone('tz=Mars%2FOlympus')).toBe('UTC');
      expect(await zone('tz=%E0%A4%A')).toBe('UTC');
    } finally {
      await t.close();
    }
  });
});

describe('not-found and refused pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers 404 on every not-found page, still showing its not-found text', async () => {
    const { agent } = await t.signedInAgent();
    const event = await agent.post('/api/events').send({ eventName: 'Owner Run' });
    const brand = await agent.post('/api/brands').send({ brandName: 'Other Owner' });
    expect([event.status, brand.status]).toEqual([201, 201]);
    const brandContact = await agent
      .post('/api/contacts')
      .send({ firstName: 'Bo', lastName: 'Brand', entityType: 'brand', entityId: brand.body.id });
    expect(brandContact.status).toBe(201);
    const cases: Array<[string, string]> = [
      ['/events/999999', 'Event not found'],
      ['/events/999999/edit', 'Event not found'],
      ['/professionals/999999', 'Professional not found'],
      ['/professionals/999999/edit', 'Professional not found'],
      ['/runclubs/999999', 'Run Club not found'],
      ['/runclubs/999999/edit', 'Run Club not found'],
      ['/brands/999999', 'Brand not found'],
      ['/brands/999999/edit', 'Brand not found'],
      ['/media/999999', 'Media outlet not found'],
      ['/media/999999/edit', 'Media outlet not found'],
      ['/influencers/999999', 'Influencer not found'],
      ['/influencers/999999/edit', 'Influencer not found'],
      ['/contacts/999999', 'Contact not found'],
      ['/contacts/999999/edit', 'Contact not found'],
      // A contact of another owner is not this owner's: saving would move it, so the page says it does not exist.
      [`/events/${event.body.id}/contacts/${brandContact.body.id}/edit`, 'Contact not found'],
      ['/brands/999999/contacts/add', 'Brand not found'],
    ];
    for (const [path, text] of cases) {
      const res = await agent.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.text).toContain(text);
    }
    // The same pages for records that exist still answer 200.
    expect((await agent.get(`/brands/${brand.body.id}/contacts/${brandContact.body.id}/edit`)).status).toBe(200);
    expect((await agent.get(`/events/${event.body.id}`)).status).toBe(200);
  });

  it('answers a search the API refuses with 400 and its message on all six list pages, search box kept', async () => {
    const { agent } = await t.signedInAgent();
    const longTerm = 'x'.repeat(201);
    for (const list of ['/events', '/professionals', '/runclubs', '/brands', '/media', '/influencers']) {
      const api = await agent.get(`/api${list}`).query({ q: longTerm });
      expect(api.status).toBe(400);
      const page = await agent.get(list).query({ q: longTerm });
      expect({ list, status: page.status }).toEqual({ list, status: 400 });
      expect(page.text).toContain(api.body.message);
      expect(page.text).toContain('id="records-search"');
      expect(page.text).not.toContain('Something went wrong');
    }
    // At the limit the search runs as usual.
    expect((await agent.get('/brands').query({ q: 'x'.repeat(200) })).status).toBe(200);
  });
});
