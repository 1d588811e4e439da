import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportPreview } from '@shared/imports/general.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { finishedJob } from '../helpers/wait.js';

describe('POST /api/imports/preview and saved mappings (the mapping step of /imports/new)', () => {
  let t: TestApp;
  let agent: Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

  beforeAll(async () => {
    t = await createTestApp();
    agent = (await t.signedInAgent('imports-preview@example.org')).agent;
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    await t.ctx.db('import_mappings').del();
    await t.ctx.db('influencers').del();
  });

  const finished = (id: number) => finishedJob(agent, id);

  const preview = (type: string, file: Buffer, name = 'people.csv') =>
    agent.post('/api/imports/preview').field('type', type).attach('file', file, name);

  const PEOPLE = Buffer.from('Given,Family, Insta ,Notes\nAna,Lima,@ana,\n,Nobody,,\nBo,Ek,@bo,\n\nCy,Fo,@cy,\nDi,Gu,@di,\n');

  it('answers the header, row count, three samples per column, the suggested mapping, fields and keys', async () => {
    const res = await preview('influencer', PEOPLE).expect(200);
    const body = res.body as ImportPreview;
    expect(body.header).toEqual(['Given', 'Family', 'Insta', 'Notes']);
    expect(body.rowCount).toBe(5);
    expect(body.samples).toEqual({
      Given: ['Ana', 'Bo', 'Cy'],
      Family: ['Lima', 'Nobody', 'Ek'],
      Insta: ['@ana', '@bo', '@cy'],
      Notes: [],
    });
    // Headers matched by a field's spellings, ignoring case, spaces and punctuation; the others ignored.
    expect(body.suggested).toEqual({ Given: null, Family: null, Insta: null, Notes: 'notes' });
    const named = (await preview('influencer', Buffer.from('first name,LAST-NAME,Instagram\nA,B,@c\n')).expect(200)).body as ImportPreview;
    expect(named.suggested).toEqual({ 'first name': 'firstName', 'LAST-NAME': 'lastName', Instagram: 'instagramHandle' });
    expect(body.saved).toBeNull();
    expect(body.fields[0]).toEqual({ name: 'id', label: 'ID', required: false });
    expect(body.fields.find((field) => field.name === 'firstName')).toEqual({ name: 'firstName', label: 'First name', required: true });
    expect(body.keys).toEqual(['id', 'name']);
    const events = (await preview('event', Buffer.from('Event,Website\nA,https://a.example\n')).expect(200)).body as ImportPreview;
    expect(events.keys).toEqual(['id', 'wordpressId', 'name']);
    const contacts = (await preview('contact', Buffer.from('E-mail,First Name\na@b.example,Ann\n')).expect(200)).body as ImportPreview;
    expect(contacts.keys).toEqual(['id', 'name', 'email']);
    expect(contacts.suggested).toEqual({ 'E-mail': 'email', 'First Name': 'firstName' });
  });

  it('reads a Windows-1252 CSV separated by semicolons, and takes a contact owner type', async () => {
    const file = Buffer.from('First Name;Last Name;Owner\nRen\xe9e;M\xfcller;Acme\n', 'latin1');
    const res = await agent.post('/api/imports/preview').field('type', 'contact').field('ownerType', 'brand').attach('file', file, 'c.csv');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      header: ['First Name', 'Last Name', 'Owner'],
      rowCount: 1,
      samples: { 'First Name': ['Renée'], 'Last Name': ['Müller'], Owner: ['Acme'] },
      suggested: { 'First Name': 'firstName', 'Last Name': 'lastName', Owner: 'entityId' },
    });
  });

  it('reads an XLSX file', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Media');
    sheet.addRow(['Outlet', 'Joined']);
    sheet.addRow(['Run Mag', new Date(Date.UTC(2026, 0, 5))]);
    const file = Buffer.from(await workbook.xlsx.writeBuffer());
    const body = (await preview('media', file, 'media.xlsx').expect(200)).body as ImportPreview;
    expect(body).toMatchObject({ header: ['Outlet', 'Joined'], rowCount: 1, samples: { Outlet: ['Run Mag'], Joined: ['2026-01-05'] } });
  });

  it('answers 400 with a readable message for a bad type, owner type, file or an empty one', async () => {
    const cases: Array<[ReturnType<typeof preview>, string]> = [
      [preview('planet', PEOPLE), 'type must be one of'],
      [preview('influencer', Buffer.from('')), 'The file has no header row'],
      [preview('influencer', Buffer.from('Given,Family\n')), 'The file has no rows below its header'],
      [preview('influencer', Buffer.from('\n\n')), 'The file has no header row'],
      [
        preview('influencer', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(64, 1)]), 'x.xlsx'),
        'cannot be read as XLSX',
      ],
      [
        agent.post('/api/imports/preview').field('type', 'contact').field('ownerType', 'planet').attach('file', PEOPLE, 'p.csv'),
        'Owner type',
      ],
      [
        agent.post('/api/imports/preview').field('type', 'media').field('ownerType', 'event').attach('file', PEOPLE, 'p.csv'),
        'for contacts',
      ],
      [agent.post('/api/imports/preview').field('type', 'media'), 'Send the file'],
    ];
    for (const [request, message] of cases) {
      const res = await request;
      expect(res.status, res.text).toBe(400);
      expect(res.body.message).toContain(message);
    }
    expect((await agent.post('/api/imports/preview').send({ type: 'media' })).status).toBe(400);
  });

  it('saves the mapping of a real import for its header and offers it to the next file with those headers', async () => {
    const mapping = { Given: 'firstName', Family: 'lastName', Insta: null, Notes: 'notes' };
    const dry = await agent
      .post('/api/imports')
      .field('type', 'influencer')
      .field('mapping', JSON.stringify(mapping))
      .field('dryRun', 'true')
      .attach('file', PEOPLE, 'people.csv')
      .expect(202);
    await finished(dry.body.id as number);
    expect(((await preview('influencer', PEOPLE).expect(200)).body as ImportPreview).saved).toBeNull();

    const real = await agent
      .post('/api/imports')
      .field('type', 'influencer')
      .field('mapping', JSON.stringify(mapping))
      .attach('file', PEOPLE, 'people.csv')
      .expect(202);
    expect((await finished(real.body.id as number)).result).toMatchObject({ counts: { created: 4, failed: 1 } });
    const stored = await t.ctx.db('import_mappings').select('type', 'savedBy');
    expect(stored).toHaveLength(1);
    expect(stored[0].type).toBe('influencer');
    expect(stored[0].savedBy).not.toBeNull();

    // Same headers in another case and spacing: the saved mapping, spelled as this file spells its columns.
    const again = (await preview('influencer', Buffer.from('given,FAMILY,Insta,notes \nX,Y,,\n')).expect(200)).body as ImportPreview;
    expect(again.saved).toEqual({ given: 'firstName', FAMILY: 'lastName', Insta: null, notes: 'notes' });
    // Another type, or other headers, have none.
    expect(((await preview('media', PEOPLE).expect(200)).body as ImportPreview).saved).toBeNull();
    expect(((await preview('influencer', Buffer.from('Given,Family\nA,B\n')).expect(200)).body as ImportPreview).saved).toBeNull();

    // A later import with the same headers replaces it.
    const next = await agent
      .post('/api/imports')
      .field('type', 'influencer')
      .field('mapping', JSON.stringify({ Given: 'firstName', Family: 'lastName', Insta: 'instagram', Notes: null }))
      .field('mode', 'update')
      .attach('file', PEOPLE, 'people.csv')
      .expect(202);
    await finished(next.body.id as number);
    const replaced = ((await preview('influencer', PEOPLE).expect(200)).body as ImportPreview).saved;
    expect(replaced).toMatchObject({ Insta: 'instagramHandle', Notes: null });
    expect(await t.ctx.db('import_mappings').count({ n: '*' })).toEqual([{ n: 1 }]);
  });

  it('is refused to a viewer', async () => {
    const { agent: viewer } = await t.signedInAgent('imports-preview-viewer@example.org', 'viewer');
    const res = await viewer.post('/api/imports/preview').field('type', 'media').attach('file', PEOPLE, 'p.csv');
    expect(res.status).toBe(403);
  });
});
