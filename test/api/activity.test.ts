import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateApiToken } from '@services/api-tokens/service.js';
import type { ActivityItem, ActivityPage } from '@shared/activity.js';
import { FakeMailchimp } from '../fakes/mailchimp.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../helpers/app.js';
import { waitUntil } from '../helpers/wait.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

describe('activity timelines and the activity log', () => {
  let t: TestApp;
  let anna: Agent;
  let annaId: number;
  let admin: Agent;
  let viewer: Agent;
  let brandId: number;
  let mc: FakeMailchimp;
  const tick = () => t.clock.advance(1000);

  beforeAll(async () => {
    mc = await new FakeMailchimp().start();
    mc.addAudience('Runners Weekly', 'runners1');
    t = await createTestApp({ env: { ...mc.env, HTTP_TIMEOUT_MS: '3000' } });
    const signedIn = await t.signedInAgent('anna@example.org', 'staff');
    anna = signedIn.agent;
    annaId = signedIn.user.id;
    await anna.put('/api/account').send({ firstName: 'Anna', lastName: 'Lee' });
    admin = (await t.signedInAgent('ada@example.org', 'admin')).agent;
    viewer = (await t.signedInAgent('vic@example.org', 'viewer')).agent;
    brandId = (await anna.post('/api/brands').send({ brandName: 'Stride' })).body.id as number;
  });
  afterAll(async () => {
    await t.close();
    await mc.close();
  });

  const timeline = async (agent: Agent, path: string): Promise<ActivityPage> => {
    const res = await agent.get(path);
    expect(res.status, res.text).toBe(200);
    return res.body as ActivityPage;
  };
  const kinds = (page: ActivityPage) => page.items.map((item) => item.kind);

  it('lists each kind after its action, newest first, with who and how', async () => {
    tick();
    expect((await anna.post('/api/notes').send({ entityType: 'brand', entityId: brandId, body: 'Met at the expo' })).status).toBe(201);
    tick();
    const task = await anna
      .post('/api/tasks')
      .send({ title: 'Send the deck', dueDate: '2026-12-01', assigneeId: annaId, entityType: 'brand', entityId: brandId });
    expect(task.status, task.text).toBe(201);
    tick();
    expect((await anna.put(`/api/tasks/${task.body.id}`).send({ done: true })).status).toBe(200);
    tick();
    expect((await anna.put(`/api/brands/${brandId}`).send({ brandName: 'Stride Co' })).status).toBe(200);
    tick();
    const payment = await anna
      .post('/api/payments')
      .send({ entityType: 'brand', entityId: brandId, description: 'Banner', amount: '10.00' });
    expect(payment.status).toBe(201);
    tick();
    const contact = await anna.post('/api/contacts').send({ firstName: 'Jo', lastName: 'Lane', entityType: 'brand', entityId: brandId });
    tick();
    expect((await anna.delete(`/api/contacts/${contact.body.id}`)).status).toBe(204);

    const page = await timeline(viewer, `/api/brands/${brandId}/activity`);
    expect(kinds(page)).toEqual(['contact', 'contact', 'payment', 'change', 'task', 'task', 'note', 'change']);
    expect(page.next).toBeNull();
    const [removed, added, paid, changed, done, created, note] = page.items as ActivityItem[];
    expect(removed!.summary).toBe('Anna Lee removed the contact Jo Lane');
    expect(added!.summary).toBe('Anna Lee added the contact Jo Lane');
    expect(paid!.summary).toBe('Anna Lee added a payment: Banner (10.00)');
    expect(changed).toMatchObject({
      source: 'screen',
      actor: { id: annaId, name: 'Anna Lee' },
      summary: 'Anna Lee changed Brand name from Stride to Stride Co',
    });
    expect(done!.summary).toBe('Task done: Send the deck');
    expect(created!.summary).toBe('Task created: Send the deck');
    expect(note).toMatchObject({ kind: 'note', summary: 'Met at the expo', actor: { name: 'Anna Lee' } });
    const times = page.items.map((item) => item.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by kind', async () => {
    expect(kinds(await timeline(anna, `/api/brands/${brandId}/activity?kind=task`))).toEqual(['task', 'task']);
    expect(kinds(await timeline(anna, `/api/brands/${brandId}/activity?kind=note,payment`))).toEqual(['payment', 'note']);
    const bad = await anna.get(`/api/brands/${brandId}/activity?kind=gossip`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/kind must be one of/);
  });

  it('names a change made with an API token, and one made by an import', async () => {
    const created = await admin.post('/api/api-tokens').send({ name: 'Website forms', role: 'staff', expiresInDays: 30 });
    expect(created.status, created.text).toBe(201);
    tick();
    const put = await supertest(t.app)
      .put(`/api/brands/${brandId}`)
      .set('Authorization', `Bearer ${created.body.token as string}`)
      .send({ brandName: 'Stride Ltd' });
    expect(put.status, put.text).toBe(200);
    const [latest] = (await timeline(anna, `/api/brands/${brandId}/activity?kind=change`)).items;
    expect(latest).toMatchObject({ source: 'token', summary: 'API token Website forms changed Brand name from Stride Co to Stride Ltd' });

    tick();
    const imported = await anna
      .post('/api/brands/bulk-import')
      .send({ data: [{ Brand: 'Imported Brand', 'First Name': 'A', 'Last Name': 'B', Email: 'a@imported.example' }] });
    expect(imported.status, imported.text).toBe(200);
    const id = (await t.database.db('brands').where({ brandName: 'Imported Brand' }).first('id')).id as number;
    const [entry] = (await timeline(anna, `/api/brands/${id}/activity`)).items;
    expect(entry).toMatchObject({ kind: 'change', source: 'import' });
  });

  it('pages by cursor without gaps or repeats, ties broken the same way every time', async () => {
    const other = (await anna.post('/api/brands').send({ brandName: 'Many Notes' })).body.id as number;
    // 60 notes at one instant and a task beside them: the order falls back to the kind's place and the id.
    for (let i = 0; i < 60; i++) await anna.post('/api/notes').send({ entityType: 'brand', entityId: other, body: `note ${i}` });
    await anna.post('/api/tasks').send({ title: 'Tie', dueDate: '2026-12-01', assigneeId: annaId, entityType: 'brand', entityId: other });
    const first = await timeline(anna, `/api/brands/${other}/activity`);
    expect(first.items).toHaveLength(50);
    expect(first.next).not.toBeNull();
    const second = await timeline(anna, `/api/brands/${other}/activity?after=${first.next!}`);
    expect(second.next).toBeNull();
    const ids = [...first.items, ...second.items].map((item) => item.id);
    expect(new Set(ids).size).toBe(ids.length);
    // 60 notes, the task and the brand's create.
    expect(ids).toHaveLength(62);
    const notes = ids.filter((id) => id.startsWith('note-')).map((id) => Number(id.slice(5)));
    expect(notes).toEqual([...notes].sort((a, b) => b - a));
    expect((await anna.get(`/api/brands/${other}/activity?after=not-a-cursor!`)).status).toBe(400);
  });

  it('answers 404 for a missing record, and shows a contact its own timeline', async () => {
    const missing = await anna.get('/api/brands/999999/activity');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Brand not found');
    const contact = (await anna.post('/api/contacts').send({ firstName: 'Kim', lastName: 'Ray', entityType: 'brand', entityId: brandId }))
      .body.id as number;
    tick();
    await anna.put(`/api/contacts/${contact}`).send({ jobTitle: 'Director' });
    tick();
    await anna.post('/api/notes').send({ entityType: 'contact', entityId: contact, body: 'Prefers e-mail' });
    const page = await timeline(viewer, `/api/contacts/${contact}/activity`);
    expect(kinds(page)).toEqual(['note', 'change', 'change']);
    expect(page.items[1]!.summary).toBe('Anna Lee changed Job title from empty to Director');
    expect((await anna.get('/api/contacts/999999/activity')).status).toBe(404);
  });

  it('shows a Mailchimp push on the contact and on its record, once in the log', async () => {
    const contact = (
      await anna
        .post('/api/contacts')
        .send({ firstName: 'Mo', lastName: 'Pitt', email: 'mo@stride.example', entityType: 'brand', entityId: brandId })
    ).body.id as number;
    tick();
    const pushed = await anna.post('/api/contacts/bulk-mailchimp').send({ ids: [contact], audienceId: 'runners1' });
    expect(pushed.status, pushed.text).toBe(200);
    const summary = 'Pushed Mo Pitt (mo@stride.example) to Mailchimp audience runners1';
    expect((await timeline(anna, `/api/contacts/${contact}/activity`)).items[0]).toMatchObject({ kind: 'mailchimp', summary });
    expect((await timeline(anna, `/api/brands/${brandId}/activity?kind=mailchimp`)).items).toMatchObject([{ summary, source: 'screen' }]);
    const log = await admin.get('/api/activity?kind=mailchimp');
    expect(log.body.items).toMatchObject([{ summary, recordType: 'contact', recordId: contact }]);
  });

  it("shows a newsletter push (the Integrations page's job) on each pushed contact's timeline and its record's", async () => {
    const contact = (
      await anna
        .post('/api/contacts')
        .send({ firstName: 'Nell', lastName: 'Ray', email: 'nell@stride.example', entityType: 'brand', entityId: brandId })
    ).body.id as number;
    tick();
    const started = await anna.post('/api/jobs').send({ type: 'newsletter', params: { audienceId: 'runners1', ownerType: 'brand' } });
    expect(started.status, started.text).toBe(202);
    const jobId = started.body.id as number;
    await waitUntil(async () => (await anna.get(`/api/jobs/${jobId}`)).body.state === 'succeeded', 'the newsletter push to finish', 60_000);
    const summary = 'Pushed Nell Ray (nell@stride.example) to Mailchimp audience runners1';
    expect((await timeline(anna, `/api/contacts/${contact}/activity?kind=mailchimp`)).items).toMatchObject([
      { summary, source: 'screen', actor: { id: annaId, name: 'Anna Lee' } },
    ]);
    expect((await timeline(anna, `/api/brands/${brandId}/activity?kind=mailchimp`)).items.map((item) => item.summary)).toContain(summary);
  });

  describe('the activity log', () => {
    const log = async (query = ''): Promise<ActivityPage> => {
      const res = await admin.get(`/api/activity${query}`);
      expect(res.status, res.text).toBe(200);
      return res.body as ActivityPage;
    };

    it('is for admins only', async () => {
      expect((await anna.get('/api/activity')).status).toBe(403);
      expect((await viewer.get('/api/activity')).status).toBe(403);
      expect((await viewer.get('/api/activity.csv')).status).toBe(403);
    });

    it('holds sign-ins and failed sign-ins', async () => {
      tick();
      const failed = await t.agent().post('/api/login').send({ email: 'anna@example.org', password: 'wrong password' });
      expect(failed.status).toBe(401);
      tick();
      expect((await t.agent().post('/api/login').send({ email: 'anna@example.org', password: TEST_PASSWORD })).status).toBe(200);
      const page = await log('?kind=sign_in,failed_sign_in');
      expect(kinds(page).slice(0, 2)).toEqual(['sign_in', 'failed_sign_in']);
      expect(page.items[1]!.summary).toMatch(/^Failed sign-in for Anna Lee/);
      expect(page.items.every((item) => item.kind === 'sign_in' || item.kind === 'failed_sign_in')).toBe(true);
    });

    it('holds tasks made and done, by who made and who did them, filtered by record type', async () => {
      tick();
      const task = await anna
        .post('/api/tasks')
        .send({ title: 'Send the sponsor pack', dueDate: '2026-12-01', assigneeId: annaId, entityType: 'brand', entityId: brandId });
      expect(task.status, task.text).toBe(201);
      tick();
      expect((await admin.put(`/api/tasks/${task.body.id as number}`).send({ done: true })).status).toBe(200);
      const page = await log('?kind=task&type=brand');
      expect(page.items.slice(0, 2).map((item) => [item.summary, item.actor?.name, item.recordType, item.recordId])).toEqual([
        ['Task done: Send the sponsor pack', expect.any(String), 'brand', brandId],
        ['Task created: Send the sponsor pack', 'Anna Lee', 'brand', brandId],
      ]);
      expect(page.items[0]!.actor?.id).not.toBe(annaId);
      expect((await log(`?kind=task&user=${annaId}`)).items.map((item) => item.summary)).toContain('Task created: Send the sponsor pack');
      expect((await log(`?kind=task&user=${annaId}`)).items.map((item) => item.summary)).not.toContain('Task done: Send the sponsor pack');
      expect((await log('?kind=task&type=media')).items).toEqual([]);
    });

    it('filters by user, kind, record type and date range', async () => {
      const byAnna = await log(`?user=${annaId}&kind=change`);
      expect(byAnna.items.length).toBeGreaterThan(0);
      expect(byAnna.items.every((item) => item.actor?.id === annaId && item.kind === 'change')).toBe(true);
      // The change made with the token, and the token's first use.
      expect((await log('?kind=token')).items.map((item) => item.summary)).toEqual([
        'API token Website forms changed Brand name from Stride Co to Stride Ltd',
        expect.stringMatching(new RegExp(`^API token "Website forms" used from \\S+: PUT /api/brands/${brandId}$`)),
      ]);
      expect(kinds(await log('?kind=import')).length).toBeGreaterThan(0);
      const contacts = await log('?type=contact&kind=change');
      expect(contacts.items.length).toBeGreaterThan(0);
      expect(contacts.items.every((item) => /contact|Director/.test(item.summary))).toBe(true);
      const today = t.clock.now().toISOString().slice(0, 10);
      expect((await log(`?from=${today}&to=${today}`)).items.length).toBeGreaterThan(0);
      expect((await log('?from=2020-01-01&to=2020-01-02')).items).toEqual([]);
      expect((await admin.get('/api/activity?from=yesterday')).status).toBe(400);
      expect((await admin.get('/api/activity?type=spaceship')).status).toBe(400);
    });

    it('exports as CSV with a header and a row per entry, and logs the export', async () => {
      const res = await admin.get('/api/activity.csv?kind=sign_in,failed_sign_in');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/csv/);
      const lines = res.text
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]).toBe('Time,Kind,Who,Source,Record type,Record id,What');
      expect(lines.length).toBe(1 + (await log('?kind=sign_in,failed_sign_in')).items.length);
      expect(lines.slice(1).every((line) => /,(sign_in|failed_sign_in),/.test(line))).toBe(true);
      expect(kinds(await log('?kind=export'))).toEqual(['export']);
    });

    it('holds API token uses, reads too: the first use, then a new address, a new day or a use after an idle hour', async () => {
      const created = await admin.post('/api/api-tokens').send({ name: 'Nightly report', role: 'viewer', expiresInDays: 30 });
      expect(created.status, created.text).toBe(201);
      const read = async (path: string) => {
        const res = await supertest(t.app)
          .get(path)
          .set('Authorization', `Bearer ${created.body.token as string}`);
        expect(res.status, res.text).toBe(200);
      };
      const uses = async () =>
        (await log('?kind=token')).items
          .filter((item) => item.summary.startsWith('API token "Nightly report"'))
          .map((item) => item.summary);

      tick();
      await read('/api/events');
      expect((await uses())[0]).toMatch(/^API token "Nightly report" used from \S+: GET \/api\/events$/);
      // Two minutes of steady use: no new line.
      for (let i = 0; i < 4; i++) {
        t.clock.advance(30_000);
        await read('/api/brands');
      }
      expect(await uses()).toHaveLength(1);
      // An idle hour, then a read: logged again.
      t.clock.advance(3_600_000);
      await read('/api/media');
      expect(await uses()).toHaveLength(2);
      expect((await uses())[0]).toMatch(/GET \/api\/media$/);
      // A new address is logged at once; then steady use across midnight (UTC): the new day's first use is logged.
      // (Told a clock of their own: moving the app's clock by hours would end the admin's session.)
      const day = t.clock.now().toISOString().slice(0, 10);
      const useAt = (iso: string, request: string) =>
        authenticateApiToken({ ...t.ctx, clock: { now: () => new Date(iso) } }, created.body.token as string, '203.0.113.9', request);
      await useAt(`${day}T23:59:00Z`, 'GET /api/payments');
      expect((await uses())[0]).toBe('API token "Nightly report" used from 203.0.113.9: GET /api/payments');
      const tomorrow = new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);
      await useAt(`${tomorrow}T00:01:00Z`, 'GET /api/files');
      await useAt(`${tomorrow}T00:02:30Z`, 'GET /api/files');
      expect(await uses()).toHaveLength(4);
      expect((await uses())[0]).toBe('API token "Nightly report" used from 203.0.113.9: GET /api/files');
      const [entry] = (await log('?kind=token')).items;
      expect(entry).toMatchObject({ kind: 'token', source: 'token', actor: null, recordType: null });
      // Not a record's activity: a record type filter leaves token uses out.
      expect((await log('?kind=token&type=brand')).items.every((item) => !item.summary.startsWith('API token "Nightly report"'))).toBe(
        true,
      );
    });

    it('has a settings page for admins, refused to staff', async () => {
      const page = await admin.get('/settings/activity?kind=failed_sign_in').expect(200);
      expect(page.text).toContain('Activity log');
      expect(page.text).toMatch(/Failed sign-in for Anna Lee/);
      expect(page.text).toContain('href="/api/activity.csv?kind=failed_sign_in"');
      expect((await anna.get('/settings/activity')).status).toBe(403);
      expect((await admin.get('/settings/activity?from=not-a-date')).status).toBe(400);
    });
  });
});
