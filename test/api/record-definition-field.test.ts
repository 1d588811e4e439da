import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { describeEntry, type HistoryEntry } from '@shared/history.js';
import { historyLabelsOf } from '@shared/records/index.js';
import { parseImportCsv } from '@views/pages/imports/parse-csv.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * docs/conventions.md "Add a field" in three files, proven: a migration (mocked into the list, as a new file would
 * be found), one field in the brand's definition (a fixture extension of the real one) and this test. Nothing else
 * changes, and the field is in the API, the forms, the table and its settings, the detail page, the CSV export, the brands import, search
 * and the history.
 */
vi.mock('@migrations/index.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('@migrations/index.js')>();
  const addHandle = {
    async up(knex: Knex) {
      await knex.schema.alterTable('brands', (t) => {
        t.string('instagramHandle', 100).nullable();
      });
    },
    async down(knex: Knex) {
      await knex.schema.alterTable('brands', (t) => {
        t.dropColumn('instagramHandle');
      });
    },
  };
  const migrations = [...(await real.migrationSource.getMigrations([])), ['29990101000000_brands_instagram_handle', addHandle] as const];
  return { migrationSource: { ...real.migrationSource, getMigrations: async () => migrations } };
});

vi.mock('@shared/records/brand.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('@shared/records/brand.js')>();
  const { withField } = await import('../helpers/record-fixture.js');
  return {
    BRAND: withField(
      real.BRAND,
      'instagramHandle',
      {
        label: 'Instagram handle',
        rule: { type: 'handle', max: 100 },
        placeholder: '@brand',
        exportHeader: 'Instagram Handle',
        import: { header: 'Instagram Handle', synonyms: ['IG'] },
      },
      { formSection: 'Brand Information', detailGroup: 'Brand Information' },
    ),
  };
});

describe('a field added to a record definition reaches every surface that reads definitions', () => {
  let t: TestApp;
  let agent: Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];
  let id: number;

  beforeAll(async () => {
    t = await createTestApp();
    agent = (await t.signedInAgent()).agent;
    const created = await agent.post('/api/brands').send({ brandName: 'Fleet Feet', instagramHandle: '@fleetfeetrun' });
    expect(created.status).toBe(201);
    id = (created.body as { id: number }).id;
  });
  afterAll(async () => t.close());

  it('is accepted by the API, its rule applied (the @ dropped, the length checked), and answered', async () => {
    expect((await agent.get(`/api/brands/${id}`)).body).toMatchObject({ instagramHandle: 'fleetfeetrun' });
    const tooLong = await agent.post('/api/brands').send({ brandName: 'X', instagramHandle: 'x'.repeat(101) });
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.body)).toContain('Must be at most 100 characters');
  });

  it('shows in the create and edit forms', async () => {
    for (const path of ['/brands/add', `/brands/${id}/edit`]) {
      const html = (await agent.get(path)).text;
      expect(html).toMatch(/<label[^>]*for="field-instagramHandle"[^>]*>Instagram handle/);
      expect(html).toMatch(/name="instagramHandle"[^>]*placeholder="@brand"|placeholder="@brand"[^>]*name="instagramHandle"/);
    }
    expect((await agent.get(`/brands/${id}/edit`)).text).toContain('value="fleetfeetrun"');
  });

  it('is a column of the brands table, offered by the table settings and drawn by its rule', async () => {
    expect((await agent.put('/api/preferences/brands.columns').send({ value: ['brandName', 'instagramHandle'] })).status).toBe(200);
    expect((await agent.get('/api/preferences')).body).toMatchObject({ 'brands.columns': ['brandName', 'instagramHandle'] });
    expect((await agent.put('/api/preferences/brands.view').send({ value: 'table' })).status).toBe(200);
    const html = (await agent.get('/brands')).text;
    const table = /<table[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
    expect(table.match(/<th[^>]*>[\s\S]*?<\/th>/g)?.map((cell) => cell.replace(/<[^>]+>/g, ''))).toEqual(
      expect.arrayContaining(['Instagram handle']),
    );
    expect(table).toMatch(/<td[^>]*>fleetfeetrun<\/td>/);
  });

  it("is a row of the detail page's group the definition puts it in", async () => {
    const html = (await agent.get(`/brands/${id}`)).text;
    const group = /<h2[^>]*>Brand Information<\/h2>[\s\S]*?<\/dl>/.exec(html)?.[0] ?? '';
    expect(group).toContain('<dt>Instagram handle</dt><dd>fleetfeetrun</dd>');
  });

  it('is a column of the CSV export, under its header', async () => {
    const res = await agent.get('/api/export/brands').buffer(true);
    const [header, row] = res.text.replace(/^\uFEFF/, '').split('\r\n');
    const columns = header!.split(',');
    expect(columns).toContain('Instagram Handle');
    expect(row!.split(',')[columns.indexOf('Instagram Handle')]).toBe('fleetfeetrun');
  });

  it('is found by search', async () => {
    const found = await agent.get('/api/brands?q=fleetfeetr');
    expect((found.body as { items: Array<{ id: number }> }).items.map((item) => item.id)).toEqual([id]);
  });

  it('is read by the brands import, under its header or a synonym, by its rule', async () => {
    const csv = ['Brand,First Name,Last Name,Email,IG', 'Hoka,Ann,Lee,ann@hoka.example.com,@hokaone'].join('\n');
    const parsed = parseImportCsv('brands', csv);
    if (!parsed.ok) throw new Error(parsed.message);
    const res = await agent.post('/api/brands/bulk-import').send(parsed.payload);
    expect(res.status).toBe(200);
    const hoka = await t.ctx.db('brands').where({ brandName: 'Hoka' }).first();
    expect(hoka).toMatchObject({ instagramHandle: 'hokaone' });

    const tooLong = parseImportCsv(
      'brands',
      `Brand,First Name,Last Name,Email,Instagram Handle\nOn,Al,Bo,al@on.example.com,${'x'.repeat(101)}`,
    );
    if (!tooLong.ok) throw new Error(tooLong.message);
    const refused = await agent.post('/api/brands/bulk-import').send(tooLong.payload);
    expect(JSON.stringify(refused.body)).toContain('Instagram Handle is longer than 100 characters');
  });

  it('is in the history, with its label', async () => {
    await agent.put(`/api/brands/${id}`).send({ brandName: 'Fleet Feet', instagramHandle: 'fleetfeet' });
    const entries = (await agent.get(`/api/brands/${id}/history`)).body.items as HistoryEntry[];
    const update = entries.find((entry) => entry.action === 'update')!;
    expect(update.changes).toMatchObject({ instagramHandle: { from: 'fleetfeetrun', to: 'fleetfeet' } });
    expect(describeEntry(update, 'brand', historyLabelsOf('brand'))).toContainEqual(
      expect.stringContaining('changed Instagram handle from fleetfeetrun to fleetfeet'),
    );
  });
});
