import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '@services/context.js';
import { readTable } from '@services/imports/general/read.js';
import { runGeneralImport, type GeneralImportOptions } from '@services/imports/general/service.js';
import { exportContactsCsv, exportRecordsCsv } from '@services/records/export.js';
import { readListQuery } from '@shared/list-query.js';
import { RECORD_TYPES, RECORD_TYPE_INFO } from '@shared/record-types.js';
import { RECORD_DEFINITIONS } from '@shared/records/index.js';
import { suggestMapping } from '@shared/imports/general.js';
import { testServiceContext } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

const actor = { userId: null, source: 'cli' as const, role: 'admin' as const };

describe('general import', () => {
  let database: TestDatabase;
  let ctx: AppContext;

  beforeAll(async () => {
    database = await createTestDatabase();
    ctx = testServiceContext(database, { clock: { now: () => new Date('2026-11-21T10:00:00Z') } });
  });
  afterAll(async () => database.destroy());
  beforeEach(async () => {
    await database.db('history').del();
    await database.db('contacts').del();
    for (const type of RECORD_TYPES) await database.db(RECORD_TYPE_INFO[type].table).del();
  });

  const run = async (text: string | Buffer, options: GeneralImportOptions) =>
    runGeneralImport(ctx, actor, await readTable(typeof text === 'string' ? Buffer.from(text) : text), options);
  const historyCount = async () => Number(((await database.db('history').count({ n: '*' }).first()) as { n: number | string }).n);
  const csvText = async (stream: NodeJS.ReadableStream) => {
    let text = '';
    for await (const chunk of stream) text += String(chunk);
    return text.replace(/^\uFEFF/, '');
  };

  it('matches misnamed headers by label and synonyms, ignoring case, spaces and punctuation', () => {
    expect(suggestMapping('brand', ['brand_name', 'INDUSTRY', 'Web site', 'Whatever'])).toEqual({
      brand_name: 'brandName',
      INDUSTRY: 'industryCategory',
      'Web site': 'websiteUrl',
      Whatever: null,
    });
    expect(suggestMapping('contact', ['E-mail', 'surname', 'first name', 'Owner'])).toEqual({
      'E-mail': 'email',
      surname: 'lastName',
      'first name': 'firstName',
      Owner: 'entityId',
    });
  });

  it('creates every list type by its name; a second run changes nothing and writes no history', async () => {
    for (const type of RECORD_TYPES) {
      const names = Object.entries(RECORD_DEFINITIONS[type].fields).filter(([, field]) => field.rule?.type === 'name');
      const header = names.map(([, field]) => field.label.toUpperCase()).join(';');
      const rows = names.map(([name]) => `${name} one`).join(';');
      const first = await run(`${header}\n${rows}\n`, { type, mode: 'upsert' });
      expect(first.counts, type).toMatchObject({ created: 1, failed: 0 });
      const history = await historyCount();
      const again = await run(`${header}\n${rows}\n`, { type, mode: 'upsert' });
      expect(again.counts, type).toMatchObject({ created: 0, unchanged: 1 });
      expect(await historyCount()).toBe(history);
    }
    const rows = await database.db('history').select('actorKind', 'action');
    expect(rows.every((row: { actorKind: string }) => row.actorKind === 'import')).toBe(true);
  });

  it('reports per-row errors from the form rules and writes the valid rows', async () => {
    const result = await run('Brand,Last Campaign End Date\nGood,2026-01-02\n,2026-01-02\nBad date,2026-13-40\n', { type: 'brand' });
    expect(result.counts).toMatchObject({ created: 1, failed: 2 });
    expect(result.rows).toEqual([
      { row: 2, outcome: 'created', message: '' },
      { row: 3, outcome: 'failed', message: 'Brand name is required' },
      { row: 4, outcome: 'failed', message: expect.stringContaining('Last campaign end date: Must be a real date') },
    ]);
    expect(await database.db('brands').pluck('brandName')).toEqual(['Good']);
  });

  it('create only skips existing rows, update only skips new ones, and dry run writes nothing', async () => {
    await run('Brand,Industry\nAcme,Shoes\n', { type: 'brand' });
    const create = await run('Brand,Industry\nacme,Hats\nNova,Hats\n', { type: 'brand', mode: 'create', key: 'name' });
    expect(create.rows.map((row) => row.outcome)).toEqual(['skipped', 'created']);
    const update = await run('Brand,Industry\nAcme,Hats\nZeta,Hats\n', { type: 'brand', mode: 'update', key: 'name' });
    expect(update.rows.map((row) => row.outcome)).toEqual(['updated', 'skipped']);
    expect(update.rows[0]!.message).toBe('Changed: Industry category');
    const dry = await run('Brand,Industry\nAcme,Socks\nYota,Socks\n', { type: 'brand', mode: 'upsert', dryRun: true });
    expect(dry.rows.map((row) => row.outcome)).toEqual(['updated', 'created']);
    expect(await database.db('brands').orderBy('brandName').pluck('industryCategory')).toEqual(['Hats', 'Hats']);
  });

  it('matches events by their WordPress id', async () => {
    await run('Event Name,event_id\nCity Run,77\n', { type: 'event', mode: 'upsert', key: 'wordpressId' });
    const renamed = await run('Event Name,event_id\nCity Run 2027,77\nOther,78\n', { type: 'event', mode: 'update', key: 'wordpressId' });
    expect(renamed.rows.map((row) => row.outcome)).toEqual(['updated', 'skipped']);
    expect(await database.db('events').pluck('eventName')).toEqual(['City Run 2027']);
  });

  it('imports contacts under owners named in a column, matched by email', async () => {
    await run('Brand\nAcme\n', { type: 'brand' });
    const file = 'First Name,Surname,E-mail,Company,Tags\nAna,Lima,ana@example.com,Acme,a; b\nBo,Ek,bo@example.com,Nope,\n';
    const result = await run(file, { type: 'contact', ownerType: 'brand', ownerColumn: 'Company', key: 'email' });
    expect(result.rows.map((row) => [row.outcome, row.message])).toEqual([
      ['created', ''],
      ['failed', 'Owner not found: Nope'],
    ]);
    const again = await run(file.replace('Ana,', 'Anna,'), { type: 'contact', ownerType: 'brand', ownerColumn: 'Company', key: 'email' });
    expect(again.rows[0]).toEqual({ row: 2, outcome: 'updated', message: 'Changed: First name' });
    const stored = await database.db('contacts').first('firstName', 'mailchimpTags');
    expect(stored).toMatchObject({ firstName: 'Anna' });
  });

  it('reads the first sheet of an XLSX file', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Clubs');
    sheet.addRow(['Club name', 'City']);
    sheet.addRow(['Trail Pack', 'Austin']);
    sheet.addRow([{ richText: [{ text: 'Night ' }, { text: 'Owls' }] }, 'Boise']);
    workbook.addWorksheet('Other').addRow(['Ignored']);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const result = await run(bytes, { type: 'runclub' });
    expect(result.counts).toMatchObject({ created: 2, failed: 0 });
    expect(await database.db('run_clubs').orderBy('clubName').pluck('clubName')).toEqual(['Night Owls', 'Trail Pack']);
  });

  it('an export imported back by id changes nothing; an edited cell changes exactly that field', async () => {
    await run('Brand,Industry,Website,Notes\nAcme,Shoes,https://acme.test,"=1+1 note"\nNova,,,\n', { type: 'brand' });
    const read = readListQuery('brand', new URLSearchParams(), 'api');
    if (!read.ok) throw new Error(read.message);
    const exported = await csvText(exportRecordsCsv(ctx, 'brand', read.query));
    const history = await historyCount();
    const same = await run(exported, { type: 'brand', mode: 'update' });
    expect(same.key).toBe('id');
    expect(same.counts).toMatchObject({ unchanged: 2, updated: 0, failed: 0 });
    expect(await historyCount()).toBe(history);
    const edited = await run(exported.replace('Shoes', 'Boots'), { type: 'brand', mode: 'update' });
    expect(edited.rows.filter((row) => row.outcome === 'updated')).toEqual([
      { row: expect.any(Number), outcome: 'updated', message: 'Changed: Industry category' },
    ]);
    expect(await database.db('brands').where({ brandName: 'Acme' }).first('industryCategory', 'notes', 'websiteUrl')).toEqual({
      industryCategory: 'Boots',
      notes: '=1+1 note',
      websiteUrl: 'https://acme.test',
    });
  });

  it('a contacts export imported back changes nothing', async () => {
    await run('Brand\nAcme\n', { type: 'brand' });
    await run('First Name,Last Name,Email,Owner,Primary,Tags\nAna,Lima,ana@example.com,Acme,yes,a; b\n', {
      type: 'contact',
      ownerType: 'brand',
    });
    const exported = await csvText(exportContactsCsv(ctx, {}));
    const same = await run(exported, { type: 'contact', mode: 'update' });
    expect(same.counts).toMatchObject({ unchanged: 1, failed: 0 });
    const edited = await run(exported.replace('ana@example.com', 'ana@example.org'), { type: 'contact', mode: 'update' });
    expect(edited.rows[0]).toMatchObject({ outcome: 'updated', message: 'Changed: Email' });
  });

  it('refuses a key whose column is not mapped, and a mapping naming an unknown field', async () => {
    await expect(run('Brand\nAcme\n', { type: 'brand', mode: 'update', key: 'id' })).rejects.toThrow('The key id needs its column mapped');
    await expect(run('Brand\nAcme\n', { type: 'brand', mapping: { Brand: 'colour' } })).rejects.toThrow('Unknown field for Brand: colour');
    await expect(run('Brand\nAcme\n', { type: 'brand', key: 'email' })).rejects.toThrow('brand cannot be matched by email');
  });
});
