import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import supertest from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeList, encodeTimestamp } from '@db/codecs.js';
import { createTestApp, TEST_ORIGIN, TEST_PASSWORD, type TestApp } from '../helpers/app.js';
import { ACCENTED, brandsText, utf16leWithBom, utf8, utf8WithBom, utf8WithLateBadByte, windows1252 } from '../helpers/csv-bytes.js';
import { waitUntil } from '../helpers/wait.js';
import { parseImportCsv, type ImportPayload } from '@views/pages/imports/parse-csv.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/csv/${name}`, import.meta.url), 'utf8');

/** What the import screens send for a pasted text: parsed in the browser with the same rules. */
function payloadOf(kind: 'events' | 'brands', text: string): ImportPayload {
  const parsed = parseImportCsv(kind, text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.payload;
}

describe('bulk import API', () => {
  let t: TestApp;
  let agent: Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];
  let userId: number;

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.signedInAgent();
    agent = signedIn.agent;
    userId = signedIn.user.id;
  });
  afterAll(async () => t.close());

  beforeEach(async () => {
    await t.ctx.db('contacts').del();
    await t.ctx.db('events').del();
    await t.ctx.db('brands').del();
  });

  async function addEvent(wordpressEventId: number, websiteUrl: string | null = null) {
    const now = encodeTimestamp(t.clock.now());
    const [id] = await t.ctx
      .db('events')
      .insert({ eventName: `Race ${wordpressEventId}`, wordpressEventId, websiteUrl, createdAt: now, updatedAt: now });
    return Number(id);
  }

  const contactsOf = (entityType: string) =>
    t.ctx
      .db('contacts')
      .where({ entityType })
      .orderBy('id')
      .select('entityId', 'firstName', 'lastName', 'email', 'jobTitle', 'createdBy', 'isPrimary', 'mailchimpTags');

  describe('events', () => {
    it('imports a BOM + CRLF file with quoted comma-separated addresses, naming the unknown event by line', async () => {
      const first = await addEvent(101);
      const second = await addEvent(102, 'https://old.example.org');
      const res = await agent.post('/api/events/bulk-import').send(payloadOf('events', fixture('events-bom-crlf.csv')));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ updated: 2, created: 4, skipped: 1, errors: ['Line 5: no event has event_id 999'] });
      const events = await t.ctx.db('events').orderBy('id').select('id', 'websiteUrl');
      expect(events).toEqual([
        { id: first, websiteUrl: 'https://cityrun.example.org' },
        { id: second, websiteUrl: 'https://trailfest.example.org' },
      ]);
      const contacts = await contactsOf('event');
      expect(contacts.map((c) => [c.entityId, c.email, c.firstName, c.lastName])).toEqual([
        [first, 'race@cityrun.example.org', 'Race', 'Cityrun'],
        [first, 'entries@cityrun.example.org', 'Entries', 'Cityrun'],
        [second, 'info@trailfest.example.org', 'Info', 'Trailfest'],
        [second, 'Team.Lead@trailfest.example.org', 'Team', 'Lead'],
      ]);
      expect(contacts.map((c) => [c.createdBy, Number(c.isPrimary), decodeList(c.mailchimpTags)])).toEqual(
        contacts.map(() => [userId, 0, []]),
      );
    });

    it('re-importing the same file changes nothing and creates no duplicate (addresses compared without case)', async () => {
      await addEvent(101);
      await addEvent(102);
      const payload = payloadOf('events', fixture('events-bom-crlf.csv'));
      expect((await agent.post('/api/events/bulk-import').send(payload)).body.created).toBe(4);
      const before = await t.ctx.db('events').orderBy('id').select();
      const again = await agent
        .post('/api/events/bulk-import')
        .send(payloadOf('events', fixture('events-bom-crlf.csv').replace('Team.Lead@', 'TEAM.LEAD@')));
      expect(again.body).toEqual({ updated: 0, created: 0, skipped: 5, errors: ['Line 5: no event has event_id 999'] });
      expect(await t.ctx.db('contacts').count({ n: '*' }).first()).toMatchObject({ n: 4 });
      expect(await t.ctx.db('events').orderBy('id').select()).toEqual(before);
    });

    it('takes names from name columns for the first address of a row', async () => {
      const id = await addEvent(7);
      const text = 'event_id,website,Emails,First Name,Last Name\n7,,"ann@race.example.org bob@race.example.org",Ann,Lee\n';
      const res = await agent.post('/api/events/bulk-import').send(payloadOf('events', text));
      expect(res.body).toEqual({ updated: 0, created: 2, skipped: 0, errors: [] });
      expect((await contactsOf('event')).map((c) => [c.entityId, c.firstName, c.lastName])).toEqual([
        [id, 'Ann', 'Lee'],
        [id, 'Bob', 'Race'],
      ]);
    });

    it('rejects a bad row in the middle whole, applies the rest and names the line', async () => {
      await addEvent(1);
      await addEvent(2);
      await addEvent(3);
      const text =
        'event_id,website,Email\n1,https://one.example.org,a@one.example.org\n2,https://two.example.org,"b@two.example.org, not-an-address"\n3,https://three.example.org,c@three.example.org\n';
      const res = await agent.post('/api/events/bulk-import').send(payloadOf('events', text));
      expect(res.body).toEqual({ updated: 2, created: 2, skipped: 1, errors: ['Line 3: "not-an-address" is not an email address'] });
      expect(await t.ctx.db('events').where({ wordpressEventId: 2 }).first()).toMatchObject({ websiteUrl: null });
      expect((await contactsOf('event')).map((c) => c.email)).toEqual(['a@one.example.org', 'c@three.example.org']);
    });

    it('answers the spec messages for a missing column, no usable rows and no data', async () => {
      const missing = await agent.post('/api/events/bulk-import').send({ data: [{ event_id: '1', Email: 'a@b.org' }] });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ message: 'Missing required column: website', code: 'bad_request' });
      const noEmail = await agent.post('/api/events/bulk-import').send({ data: [{ event_id: '1', website: '' }] });
      expect(noEmail.body.message).toBe('Missing email column. Expected: Email or Emails');
      const dropped = await agent.post('/api/events/bulk-import').send({ data: [{ event_id: '', website: 'x', Email: '' }] });
      expect(dropped.body.message).toBe('No valid rows found in CSV data');
      expect((await agent.post('/api/events/bulk-import').send({ data: [] })).body.message).toBe('No data provided');
      expect((await agent.post('/api/events/bulk-import').send({})).status).toBe(400);
      expect((await agent.post('/api/events/bulk-import').send({ data: 'x' })).status).toBe(400);
      expect((await agent.post('/api/events/bulk-import').send({ data: [['1']] })).status).toBe(400);
      expect((await agent.post('/api/events/bulk-import').send({ data: [{ event_id: { $gt: 1 } }] })).status).toBe(400);
      expect((await agent.post('/api/events/bulk-import').send({ data: [{ event_id: '1' }], extra: 1 })).status).toBe(400);
    });

    it('requires a signed-in user', async () => {
      expect(
        (
          await t
            .agent()
            .post('/api/events/bulk-import')
            .send({ data: [{ event_id: '1' }] })
        ).status,
      ).toBe(401);
    });
  });

  describe('brands', () => {
    it('imports quoted commas, quotes and line breaks, matching brands by name without case or spaces', async () => {
      const res = await agent.post('/api/brands/bulk-import').send(payloadOf('brands', fixture('brands-quoted.csv')));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        brandsCreated: 3,
        contactsCreated: 4,
        skipped: 1,
        errors: ['Line 7: "not-an-email" is not an email address'],
      });
      const brands = await t.ctx.db('brands').orderBy('id').select('id', 'brandName', 'createdBy');
      expect(brands.map((b) => b.brandName)).toEqual(['Fleet Feet, Inc.', 'Brooks Running', 'fleet feet inc.']);
      expect(brands.every((b) => b.createdBy === userId)).toBe(true);
      const contacts = await contactsOf('brand');
      const brandOf = (email: string) => brands.find((b) => b.id === contacts.find((c) => c.email === email)?.entityId)?.brandName;
      expect(contacts.map((c) => [c.firstName, c.lastName, c.email, c.jobTitle])).toEqual([
        ['Jane', 'Doe', 'jane.doe@fleetfeet.example.com', 'Marketing, Partnerships'],
        ['John', 'Smith', 'john@brooks.example.com', 'Partnerships Lead'],
        ['Amy', 'O"Brien', 'amy@brooks.example.com', 'Head of\nSponsorship'],
        ['Sales', 'Fleetfeet', 'sales@fleetfeet.example.com', null],
      ]);
      expect(brandOf('amy@brooks.example.com')).toBe('Brooks Running');
      // The records service heard about the new brands: they are found by its search and counted.
      const found = await agent.get('/api/brands?q=fleet');
      expect(found.body.items.map((b: { brandName: string }) => b.brandName).sort()).toEqual(['Fleet Feet, Inc.', 'fleet feet inc.']);
      expect((await agent.get('/api/stats')).body.brands).toBe(3);
    });

    it('reuses an existing brand and skips contacts it already has; a re-import creates nothing', async () => {
      const now = encodeTimestamp(t.clock.now());
      const [brooks] = await t.ctx.db('brands').insert({ brandName: 'BROOKS RUNNING', createdAt: now, updatedAt: now });
      await t.ctx.db('contacts').insert({
        firstName: 'J',
        lastName: 'S',
        email: 'JOHN@brooks.example.com',
        entityType: 'brand',
        entityId: brooks,
        mailchimpTags: '[]',
        isPrimary: 0,
        createdAt: now,
        updatedAt: now,
      });
      const payload = payloadOf('brands', fixture('brands-quoted.csv'));
      const first = await agent.post('/api/brands/bulk-import').send(payload);
      expect(first.body).toMatchObject({ brandsCreated: 2, contactsCreated: 3, skipped: 2 });
      const again = await agent.post('/api/brands/bulk-import').send(payload);
      expect(again.body).toEqual({
        brandsCreated: 0,
        contactsCreated: 0,
        skipped: 5,
        errors: ['Line 7: "not-an-email" is not an email address'],
      });
      expect(await t.ctx.db('brands').count({ n: '*' }).first()).toMatchObject({ n: 3 });
      expect(await t.ctx.db('contacts').where({ entityType: 'brand' }).count({ n: '*' }).first()).toMatchObject({ n: 4 });
    });

    it('reports a row with an unquoted comma instead of shifting its cells', async () => {
      const text = 'Brand,First Name,Last Name,Email\nFleet Feet, Inc.,Jane,Doe,jane@ff.example.com\nOn,Ola,Nord,ola@on.example.com\n';
      const res = await agent.post('/api/brands/bulk-import').send(payloadOf('brands', text));
      expect(res.body).toEqual({
        brandsCreated: 1,
        contactsCreated: 1,
        skipped: 1,
        errors: ['Line 2: has 5 cells but the header has 4; put quotes around cells that contain commas'],
      });
    });

    it('answers the spec messages', async () => {
      const missing = await agent.post('/api/brands/bulk-import').send({ data: [{ Brand: 'X', 'First Name': 'A', Email: 'a@b.org' }] });
      expect(missing.body.message).toBe('Missing required column: Last Name');
      const none = await agent
        .post('/api/brands/bulk-import')
        .send({ data: [{ Brand: '', 'First Name': 'A', 'Last Name': 'B', Email: 'a@b.org' }] });
      expect(none.body.message).toBe('No valid data found in CSV');
      expect((await agent.post('/api/brands/bulk-import').send({ data: [] })).body.message).toBe('Please enter CSV data');
    });

    // Fails while src/api/core/auth.ts applies its 16 kB JSON parser to every /api request (router.use): it parses
    // (and refuses) import bodies before the imports router's own 50 MB parser is reached.
    it('accepts a body over the general 1 MB limit', async () => {
      const data = Array.from({ length: 12_000 }, (_, i) => ({
        Brand: `Brand ${i % 50}`,
        'First Name': 'Pat',
        'Last Name': 'Lee',
        Email: `pat${i}@brand${i % 50}.example.com`,
        'Current Job': 'x'.repeat(40),
      }));
      const res = await agent.post('/api/brands/bulk-import').send({ data });
      expect(JSON.stringify({ data }).length).toBeGreaterThan(1_100_000);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ brandsCreated: 50, contactsCreated: 12_000, skipped: 0, errors: [] });
    });

    it('refuses JSON rows that carry U+FFFD (bytes that were not UTF-8), naming the line, and stores nothing', async () => {
      const rows = {
        data: [
          { Brand: 'Plain', 'First Name': 'A', 'Last Name': 'B', Email: 'a@plain.example.org' },
          { Brand: ACCENTED.brand, 'First Name': 'Ren', 'Last Name': 'M', Email: 'r@cafe.example.org' },
        ],
        lines: [2, 4],
      };
      // A script sending Windows-1252 bytes as JSON: the body parser turns each é into U+FFFD.
      const body = Buffer.from(JSON.stringify(rows), 'latin1');
      // The identity serializer sends the bytes as they are (superagent would otherwise JSON-encode the Buffer object).
      const res = await agent
        .post('/api/brands/bulk-import')
        .set('Content-Type', 'application/json')
        .serialize((raw: Buffer) => raw as unknown as string)
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(
        'Line 4: contains \uFFFD, a character lost before the text reached the import; correct it and import again',
      );
      expect(await t.ctx.db('brands').select('id')).toEqual([]);
    });

    it('treats a "__proto__" header cell as a plain column name', async () => {
      const body =
        '{"data":[{"Brand":"Proto","First Name":"A","Last Name":"B","Email":"a@proto.example.com","__proto__":{"polluted":true}}]}';
      const res = await agent.post('/api/brands/bulk-import').set('Content-Type', 'application/json').send(body);
      expect(res.status).toBe(400);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe('CSV files: encodings and separators', () => {
    const storedBrands = async () =>
      ((await t.ctx.db('brands').orderBy('brandName').select('brandName')) as Array<{ brandName: string }>).map((b) => b.brandName);
    const storedContacts = async () =>
      ((await t.ctx.db('contacts').orderBy('email').select('firstName', 'lastName', 'email')) as Array<Record<string, string>>).map((c) => [
        c.firstName,
        c.lastName,
        c.email,
      ]);
    /** Every column of every imported row, to prove no U+FFFD was ever stored. */
    const everythingStored = async () => JSON.stringify([await t.ctx.db('brands').select(), await t.ctx.db('contacts').select()]);
    const upload = (bytes: Buffer, name = 'brands.csv') =>
      agent.post('/api/brands/bulk-import').attach('file', bytes, { filename: name, contentType: 'text/csv' });

    it.each([
      ['Windows-1252 (Excel on Windows)', () => windows1252(brandsText())],
      ['UTF-8 with a BOM', () => utf8WithBom(brandsText())],
      ['UTF-16 LE with a BOM, tab separated', () => utf16leWithBom(brandsText('\t'))],
      ['Windows-1252, semicolon separated', () => windows1252(brandsText(';'))],
    ])('imports an uploaded %s file with every accent exactly as written', async (_name, bytes) => {
      const res = await upload(bytes());
      expect(res.body).toEqual({ brandsCreated: 2, contactsCreated: 2, skipped: 0, errors: [] });
      expect(await storedBrands()).toEqual(['Brooks Running', ACCENTED.brand]);
      expect(await storedContacts()).toEqual([
        [ACCENTED.firstName, ACCENTED.lastName, ACCENTED.email],
        ['Zoë', 'Faßbender', 'zoe@brooks.example.com'],
      ]);
      expect(await everythingStored()).not.toContain('\uFFFD');
    });

    it('imports an uploaded events file and names the file’s lines', async () => {
      const id = await addEvent(101);
      const text =
        'event_id;website;Email;First Name;Last Name\r\n101;cafe.example.org;a@cafe.example.org;Ren\xe9;M\xfcller\r\n\r\n999;;b@cafe.example.org;;\r\n';
      const res = await agent.post('/api/events/bulk-import').attach('file', windows1252(text), 'events.csv');
      expect(res.body).toEqual({ updated: 1, created: 1, skipped: 1, errors: ['Line 4: no event has event_id 999'] });
      expect((await contactsOf('event')).map((c) => [c.entityId, c.firstName, c.lastName])).toEqual([
        [id, ACCENTED.firstName, ACCENTED.lastName],
      ]);
    });

    it('names the separator when a required column is still missing, and the first bad line of a broken file', async () => {
      const missing = await upload(windows1252('Brand;Vorname;Nachname;Email\r\nCaf\xe9;A;B;a@b.example.org\r\n'));
      expect(missing.status).toBe(400);
      expect(missing.body.message).toBe('Missing required column: First Name (the header line is separated by semicolons)');
      const late = await upload(utf8WithLateBadByte(3000, 2800));
      expect(late.status).toBe(400);
      expect(late.body.message).toBe(
        'Line 2800: not valid UTF-8 text (a character would be stored as \uFFFD); save the file as UTF-8 ("CSV UTF-8" in Excel) and import it again',
      );
      expect(await t.ctx.db('contacts').where({ email: 'late2800@example.com' }).first()).toBeUndefined();
      expect(await everythingStored()).not.toContain('\uFFFD');
    });

    it('answers the spec messages for an empty file and a file without rows; refuses other parts', async () => {
      expect((await upload(Buffer.alloc(0))).body.message).toBe('Please enter CSV data');
      expect((await upload(utf8('Brand,First Name,Last Name,Email\n'))).body.message).toBe(
        'CSV must have at least a header row and one data row',
      );
      const wrongField = await agent.post('/api/brands/bulk-import').attach('csv', utf8(brandsText()), 'brands.csv');
      expect(wrongField.status).toBe(400);
      expect(wrongField.body.message).toBe('Send the CSV file in a form field named "file"');
      const noFile = await agent.post('/api/brands/bulk-import').field('note', 'x');
      expect(noFile.status).toBe(400);
      expect(await storedBrands()).toEqual([]);
    });

    it('stops the import when the client goes away mid-file, instead of waiting for the rest for ever', async () => {
      // An app of its own whose log keeps debug lines: the error handler notes there what the abandoned request failed with.
      const logLines: string[] = [];
      const own = await createTestApp({
        extend: (ctx) => ({ ...ctx, log: pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) }) }),
      });
      const server = own.app.listen(0, '127.0.0.1');
      try {
        await new Promise((resolve) => server.once('listening', resolve));
        const { user } = await own.signedInAgent();
        const login = await supertest(own.app)
          .post('/api/login')
          .set('Host', '127.0.0.1')
          .set('Origin', TEST_ORIGIN)
          .send({ email: user.email, password: TEST_PASSWORD });
        const cookie = (login.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
        const boundary = 'pacer-import-boundary';
        const request = httpRequest({
          host: '127.0.0.1',
          port: (server.address() as AddressInfo).port,
          method: 'POST',
          path: '/api/brands/bulk-import',
          headers: {
            Host: '127.0.0.1',
            Origin: TEST_ORIGIN,
            Cookie: cookie,
            'Content-Type': `multipart/form-data; boundary=${boundary}`,
            'Content-Length': '1000000',
          },
        });
        request.on('error', () => undefined);
        const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`;
        const rows = Array.from({ length: 50 }, (_, i) => `Brand ${i},Pat,Lee,pat${i}@example.com`).join('\r\n');
        await new Promise<void>((resolve) => request.write(`${head}Brand,First Name,Last Name,Email\r\n${rows}\r\n`, () => resolve()));
        request.destroy();
        await waitUntil(() => logLines.some((line) => line.includes('The upload could not be read')), 'the unreadable upload to be logged');
        expect(await own.ctx.db('contacts').count({ n: '*' }).first()).toMatchObject({ n: 0 });
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
        await own.close();
      }
    });
  });

  it('answers 400, never 500, to a malformed body and writes nothing', async () => {
    const bodies: Array<string | object> = [
      '{"data": [',
      { data: 'rows' },
      { data: [1] },
      { data: [{ Brand: { nested: true } }] },
      { data: [{}], lines: [0] },
      { data: [{}], extra: 1 },
    ];
    for (const path of ['/api/events/bulk-import', '/api/brands/bulk-import']) {
      for (const body of bodies) {
        const res = await agent
          .post(path)
          .set('Content-Type', 'application/json')
          .send(typeof body === 'string' ? body : JSON.stringify(body));
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      }
    }
    expect(await t.ctx.db('brands').select('id')).toEqual([]);
    expect(await t.ctx.db('contacts').select('id')).toEqual([]);
  });
});
