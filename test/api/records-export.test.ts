import { Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTimestamp } from '@db/codecs.js';
import { dialectOfDb } from '@db/knex.js';
import { withTransaction } from '@db/transaction.js';
import { exportRecordsCsv } from '@services/records/export.js';
import { insertRecordRows } from '@services/records/writes.js';
import { readListQuery } from '@shared/list-query.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { waitUntil } from '../helpers/wait.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

/** The raw bytes of a download. */
async function download(
  agent: Agent,
  url: string,
): Promise<{ status: number; headers: Record<string, string>; bytes: Buffer; body: unknown }> {
  const res = await agent
    .get(url)
    .buffer(true)
    .parse((response, done) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => done(null, Buffer.concat(chunks)));
    });
  const bytes = res.body as Buffer;
  let body: unknown = undefined;
  if (res.status !== 200) body = JSON.parse(bytes.toString('utf8'));
  return { status: res.status, headers: res.headers as Record<string, string>, bytes, body };
}

const rowsOf = (bytes: Buffer): string[][] => parse(bytes.subarray(3).toString('utf8'), { relax_column_count: false }) as string[][];

describe('CSV export', () => {
  let t: TestApp;
  let agent: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    agent = (await t.signedInAgent()).agent;
  });
  afterAll(async () => t.close());

  it('streams the list as UTF-8 CSV with a BOM, quoted per RFC 4180, formulas neutralised, money exact, dates ISO', async () => {
    const tricky = await agent.post('/api/brands').send({
      brandName: '=HYPERLINK("http://evil.example","x")',
      industryCategory: 'Shoes, "Trail" & Road\nSecond line',
      lastCampaignEndDate: '2026-03-04',
      notes: '@SUM(A1)',
    });
    expect(tricky.status).toBe(201);
    const plain = await agent.post('/api/brands').send({ brandName: 'Zürich Läufer', industryCategory: '-minus', notes: '+plus' });
    await t.ctx.db('payments').insert({
      entityType: 'brand',
      entityId: plain.body.id,
      description: 'Ad',
      amount: '1234567.89',
      createdAt: encodeTimestamp(t.clock.now()),
      updatedAt: encodeTimestamp(t.clock.now()),
    });
    // Totals are kept by the payments service; set the stored total as it would.
    await agent.post('/api/payments').send({ entityType: 'brand', entityId: plain.body.id, description: 'Ad 2', amount: '0.10' });

    const res = await download(agent, '/api/export/brands?sort=brandName&dir=asc');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="brands-2026-11-21.csv"');
    expect([...res.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = res.bytes.subarray(3).toString('utf8');
    expect(text).toContain('\r\n');
    const [header, ...rows] = rowsOf(res.bytes);
    expect(header!.slice(0, 5)).toEqual(['Brand', 'First Name', 'Last Name', 'Email', 'Current Job']);
    const cell = (row: string[], name: string) => row[header!.indexOf(name)];
    expect(rows).toHaveLength(2);
    // Sorted by name: '=' sorts before 'Z'.
    expect(cell(rows[0]!, 'Brand')).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(cell(rows[0]!, 'Industry Category')).toBe('Shoes, "Trail" & Road\nSecond line');
    expect(cell(rows[0]!, 'Notes')).toBe("'@SUM(A1)");
    expect(cell(rows[0]!, 'Last Campaign End Date')).toBe('2026-03-04');
    expect(cell(rows[0]!, 'Created At')).toBe('2026-11-21T09:00:00.000Z');
    expect(cell(rows[1]!, 'Brand')).toBe('Zürich Läufer');
    expect(cell(rows[1]!, 'Industry Category')).toBe("'-minus");
    expect(cell(rows[1]!, 'Notes')).toBe("'+plus");
    expect(cell(rows[1]!, 'Total Advertising Spend')).toBe((await agent.get(`/api/brands/${plain.body.id}`)).body.totalAdvertisingSpend);
    // The quoting on the wire: the quotes doubled, the field quoted.
    expect(text).toContain('"\'=HYPERLINK(""http://evil.example"",""x"")"');
  });

  it('neutralises a formula after a leading line feed, as after a leading tab or carriage return', async () => {
    const created = await agent.post('/api/brands').send({ brandName: 'Line Feed Co' });
    expect(created.status).toBe(201);
    // The API trims notes; an import or an older row can still hold a leading line feed.
    await t.ctx.db('brands').where({ id: created.body.id }).update({ notes: '\n=1+1' });
    const res = await download(agent, `/api/export/brands?ids=${created.body.id}`);
    const [header, row] = rowsOf(res.bytes);
    expect(row![header!.indexOf('Notes')]).toBe("'\n=1+1");
  });

  it('exports exactly what the list shows: search, filter and sort, every page, or a selection', async () => {
    const now = encodeTimestamp(t.clock.now());
    const ids = await withTransaction({ db: t.ctx.db }, (trx) =>
      insertRecordRows(
        trx,
        'event',
        Array.from({ length: 130 }, (_, i) => ({
          eventName: `${i % 2 ? 'Trail' : 'Road'} Race ${String(i).padStart(3, '0')}`,
          featuredRace: i % 5 === 0 ? 1 : 0,
          eventStartDate: `2026-${String((i % 12) + 1).padStart(2, '0')}-01`,
          totalAdvertisingSpend: `${i}.05`,
          createdAt: now,
          updatedAt: now,
        })),
      ),
    );
    const api = (await agent.get('/api/events?q=trail&filter=regular&sort=eventStartDate&dir=desc&limit=100')).body;
    const rest = (await agent.get('/api/events?q=trail&filter=regular&sort=eventStartDate&dir=desc&limit=100&offset=100')).body;
    const expected = [...api.items, ...rest.items].map((e: { eventName: string }) => e.eventName);
    const res = await download(agent, '/api/export/events?q=trail&filter=regular&sort=eventStartDate&dir=desc&limit=5');
    const [header, ...rows] = rowsOf(res.bytes);
    expect(header!.slice(0, 6)).toEqual(['Event Name', 'event_id', 'website', 'First Name', 'Last Name', 'Email']);
    expect(rows.map((row) => row[0])).toEqual(expected);
    expect(rows.length).toBe(api.total);
    expect(rows[0]![header!.indexOf('Total Advertising Spend')]).toMatch(/^\d+\.05$/);

    const selected = await download(agent, `/api/export/events?sort=eventName&dir=desc&ids=${ids[2]},${ids[1]}`);
    expect(
      rowsOf(selected.bytes)
        .slice(1)
        .map((row) => row[0]),
    ).toEqual(['Trail Race 001', 'Road Race 002']);

    for (const [url, message] of [
      ['/api/export/events?sort=notes', 'sort must be one of'],
      ['/api/export/events?ids=1,x', 'Each id must be a positive whole number'],
      [`/api/export/events?ids=${Array.from({ length: 1001 }, (_, i) => i + 1).join(',')}`, 'At most 1000 ids a call'],
    ] as const) {
      const refused = await download(agent, url);
      expect(refused.status, url).toBe(400);
      expect((refused.body as { message: string }).message).toContain(message);
    }
    expect((await download(agent, '/api/export/payments')).status).toBe(404);
    expect((await t.agent().get('/api/export/events')).status).toBe(401);
  });

  it('exports a list longer than a read in the list order, across ties, NULLs and the segments of upcoming', async () => {
    const now = encodeTimestamp(t.clock.now());
    await withTransaction({ db: t.ctx.db }, (trx) =>
      insertRecordRows(
        trx,
        'event',
        Array.from({ length: 450 }, (_, i) => ({
          eventName: `Batch Event ${String(i).padStart(3, '0')}`,
          locationState: i % 3 === 0 ? null : ['VIC', 'NSW'][i % 2],
          eventStartDate: i % 4 === 0 ? null : ['2026-12-01', '2026-01-05', '2027-02-01'][i % 3],
          createdAt: now,
          updatedAt: now,
        })),
      ),
    );
    for (const sort of [
      'sort=locationState&dir=asc',
      'sort=locationState&dir=desc',
      'sort=upcoming',
      'q=batch&sort=eventStartDate&dir=desc',
    ]) {
      // The list's own order, read 100 at a time by offset.
      const names: string[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = await agent.get(`/api/events?${sort}&limit=100&offset=${offset}`);
        names.push(...(page.body.items as Array<{ eventName: string }>).map((event) => event.eventName));
        if (page.body.items.length < 100) break;
      }
      expect(names.length, sort).toBeGreaterThanOrEqual(450);
      const res = await download(agent, `/api/export/events?${sort}`);
      const [header, ...rows] = rowsOf(res.bytes);
      expect(
        rows.map((row) => row[header!.indexOf('Event Name')]),
        sort,
      ).toEqual(names);
    }
  });

  it('re-imports an exported brands file without edits', async () => {
    await t.ctx.db('payments').del();
    await t.ctx.db('contacts').del();
    await t.ctx.db('brands').del();
    const brand = await agent.post('/api/brands').send({ brandName: 'Round Trip Running', industryCategory: 'Shoes' });
    await agent.post('/api/contacts').send({
      entityType: 'brand',
      entityId: brand.body.id,
      firstName: 'Ana',
      lastName: 'Lima',
      email: 'ana@roundtrip.example',
      jobTitle: 'Marketing Lead',
      isPrimary: true,
    });
    const other = await agent.post('/api/brands').send({ brandName: 'Second Stride' });
    await agent
      .post('/api/contacts')
      .send({ entityType: 'brand', entityId: other.body.id, firstName: 'Bo', lastName: 'Chen', email: 'bo@stride.example' });
    const exported = await download(agent, '/api/export/brands');
    expect(exported.status).toBe(200);

    await t.ctx.db('contacts').del();
    await t.ctx.db('brands').del();
    const imported = await agent
      .post('/api/brands/bulk-import')
      .attach('file', exported.bytes, { filename: 'brands.csv', contentType: 'text/csv' });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ brandsCreated: 2, contactsCreated: 2, errors: [] });
    const brands = (await agent.get('/api/brands?sort=brandName')).body.items;
    expect(brands.map((b: { brandName: string }) => b.brandName)).toEqual(['Round Trip Running', 'Second Stride']);
    const contacts = (await agent.get(`/api/contacts/brand/${brands[0].id}`)).body;
    expect(contacts).toMatchObject([{ firstName: 'Ana', lastName: 'Lima', email: 'ana@roundtrip.example', jobTitle: 'Marketing Lead' }]);
  });

  it('streams from a database cursor: a stalled reader stops the reading of rows', async () => {
    const db = t.ctx.db;
    await db('events').del();
    const now = encodeTimestamp(t.clock.now());
    // 4,000 rows of 10 kB: 40 MB that an export holding all rows at once would keep in memory.
    const total = 4000;
    const notes = 'n'.repeat(10_000);
    await withTransaction({ db }, async (trx) => {
      for (let start = 0; start < total; start += 500) {
        await insertRecordRows(
          trx,
          'event',
          Array.from({ length: 500 }, (_, i) => ({ eventName: `Bulk ${start + i}`, notes, createdAt: now, updatedAt: now })),
        );
      }
    });
    const heapBefore = process.memoryUsage().heapUsed;
    const read = readListQuery('event', new URLSearchParams(), 'api');
    if (!read.ok) throw new Error(read.message);
    // A reader that takes the first chunk and then asks for nothing more.
    let release: () => void = () => undefined;
    const stalled = new Writable({
      highWaterMark: 1024,
      write(_chunk: Buffer, _encoding, callback) {
        release = callback;
      },
    });
    const csv = exportRecordsCsv(t.ctx, 'event', read.query);
    const recordsSeen = () => csv.rowsWritten();
    csv.pipe(stalled);
    // The count stops growing once every buffer between the database and the reader is full.
    let seen = -1;
    await waitUntil(async () => {
      const now = recordsSeen();
      const settled = now > 0 && now === seen;
      seen = now;
      if (!settled) await new Promise((resolve) => setTimeout(resolve, 100));
      return settled;
    }, 'the export to stall behind its reader');
    expect(recordsSeen()).toBeLessThan(total / 4);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(15_000_000);
    // Once read on, every row arrives.
    csv.unpipe(stalled);
    release();
    csv.resume();
    await new Promise<void>((resolve, reject) => csv.on('end', resolve).on('error', reject));
    expect(recordsSeen()).toBe(total);
    expect(dialectOfDb(db)).toMatch(/sqlite|mysql/);
  }, 60_000);
});
