import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encodeTimestamp } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import type { AppContext } from '@services/context.js';
import type { SourceRow } from '@shared/imports/csv-records.js';
import { sourceFromText } from '@services/imports/csv-source.js';
import { importBrands, importEvents } from '@services/imports/service.js';
import { insertRecordRows } from '@services/records/writes.js';
import { testServiceContext } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

const actor = { userId: null, source: 'cli' as const, role: 'admin' as const };
const header = ['Brand', 'First Name', 'Last Name', 'Email'];

describe('import engine', () => {
  let database: TestDatabase;
  let ctx: AppContext;

  beforeAll(async () => {
    database = await createTestDatabase();
    ctx = testServiceContext(database, { clock: { now: () => new Date('2026-11-21T10:00:00Z') } });
  });
  afterAll(async () => database.destroy());
  beforeEach(async () => {
    await database.db('contacts').del();
    await database.db('brands').del();
    await database.db('events').del();
  });

  const count = async (table: string) => Number(((await database.db(table).count({ n: '*' }).first()) as { n: number | string }).n);
  const now = encodeTimestamp(new Date('2026-11-21T09:00:00Z'));

  it('two imports of the same file at once create each brand and contact once', async () => {
    const rows = Array.from({ length: 600 }, (_, i) => `Brand ${i % 30},Pat,Lee,pat${i}@example.com`);
    const text = `${header.join(',')}\n${rows.join('\n')}\n`;
    const [a, b] = await Promise.all([
      importBrands(ctx, sourceFromText('brands', text), { actor, batchSize: 50 }),
      importBrands(ctx, sourceFromText('brands', text), { actor, batchSize: 50 }),
    ]);
    expect(a.brandsCreated + b.brandsCreated).toBe(30);
    expect(a.contactsCreated + b.contactsCreated).toBe(600);
    expect(a.skipped + b.skipped).toBe(600);
    expect(await count('brands')).toBe(30);
    expect(await count('contacts')).toBe(600);
  });

  it('streams: asks for more rows only one batch ahead of what has committed, never for the whole file first', async () => {
    const batchSize = 20;
    const total = 300;
    let handedOver = 0;
    let committed = 0;
    let mostAhead = 0;
    async function* chunks(): AsyncGenerator<SourceRow[]> {
      for (let start = 0; start < total; start += 10) {
        // Rows the engine holds (read, not yet committed) when it asks for the next chunk.
        mostAhead = Math.max(mostAhead, handedOver - committed);
        const rows = Array.from({ length: 10 }, (_, i) => ({
          line: start + i + 2,
          values: { Brand: `Brand ${(start + i) % 7}`, 'First Name': 'Pat', 'Last Name': 'Lee', Email: `pat${start + i}@example.com` },
        }));
        handedOver += rows.length;
        yield rows;
      }
    }
    const report = await importBrands(
      ctx,
      { header, chunks: chunks() },
      { actor, batchSize, onProgress: (progress) => (committed = progress.rowsRead) },
    );
    expect(report).toMatchObject({ brandsCreated: 7, contactsCreated: total, errors: [] });
    expect(await count('contacts')).toBe(total);
    // The batch being written and the one being filled: memory follows the batch size, not the file's length.
    expect(mostAhead).toBeGreaterThanOrEqual(batchSize);
    expect(mostAhead).toBeLessThanOrEqual(2 * batchSize);
  });

  it('while a batch is written, parses the next with a turn of the event loop every few hundred rows', async () => {
    // Rows already in memory (an uploaded file, a read-ahead buffer) never wait for I/O, so without these turns the
    // whole next batch was parsed before the database's answer to the batch being written could be read.
    const batchSize = 1000;
    const total = 4000;
    let rowsSinceTurn = 0;
    let longestStretch = 0;
    let ticking = true;
    const tick = () => {
      rowsSinceTurn = 0;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    function* chunks(): Generator<SourceRow[]> {
      for (let i = 0; i < total; i++) {
        // The first batch is parsed before anything is written: only the stretches after it count.
        if (i > batchSize) longestStretch = Math.max(longestStretch, ++rowsSinceTurn);
        yield [{ line: i + 2, values: { Brand: `Brand ${i % 9}`, 'First Name': 'Pat', 'Last Name': 'Lee', Email: `pat${i}@example.com` } }];
      }
    }
    try {
      const report = await importBrands(ctx, { header, chunks: chunks() }, { actor, batchSize });
      expect(report).toMatchObject({ brandsCreated: 9, contactsCreated: total, errors: [] });
    } finally {
      ticking = false;
    }
    expect(longestStretch).toBeGreaterThan(0);
    expect(longestStretch).toBeLessThanOrEqual(260);
  });

  it('re-creates a brand deleted after the import read the names, instead of leaving orphan contacts', async () => {
    await database.db('brands').insert({ brandName: 'Gone Running', createdAt: now, updatedAt: now });
    async function* chunks(): AsyncGenerator<SourceRow[]> {
      // Runs after the engine loaded the brand names: the brand disappears under it.
      await database.db('brands').where({ brandName: 'Gone Running' }).del();
      yield [{ line: 2, values: { Brand: 'gone running', 'First Name': 'A', 'Last Name': 'B', Email: 'a@gone.example.com' } }];
    }
    const report = await importBrands(ctx, { header, chunks: chunks() }, { actor });
    expect(report).toMatchObject({ brandsCreated: 1, contactsCreated: 1, errors: [] });
    const contact = await database.db('contacts').where({ email: 'a@gone.example.com' }).first();
    const brand = await database.db('brands').where({ id: contact.entityId }).first();
    expect(brand.brandName).toBe('gone running');
  });

  it('a dry run counts exactly what a real run then does, and writes nothing', async () => {
    await database.db('events').insert({ eventName: 'City Run', wordpressEventId: 8, createdAt: now, updatedAt: now });
    const text =
      'event_id,website,Email\n8,cityrun.example.org,"a@x.example.org, A@X.example.org"\n8,cityrun.example.org,b@x.example.org\n9,,c@x.example.org\n';
    const dry = await importEvents(ctx, sourceFromText('events', text), { actor, dryRun: true, batchSize: 1 });
    expect(await count('contacts')).toBe(0);
    expect(await database.db('events').where({ wordpressEventId: 8 }).first()).toMatchObject({ websiteUrl: null });
    const real = await importEvents(ctx, sourceFromText('events', text), { actor, batchSize: 1 });
    const strip = ({ dryRun: _dryRun, ...rest }: typeof dry) => rest;
    expect(strip(dry)).toEqual(strip(real));
    expect(real).toMatchObject({
      updated: 1,
      created: 2,
      skipped: 2,
      errors: ['Line 4: no event has event_id 9'],
      appliedRows: 2,
      failedRows: 1,
    });
  });

  it('sets the website of every event of a large batch, across its update statements', async () => {
    const total = 450;
    for (let start = 0; start < total; start += 150) {
      await database.db('events').insert(
        Array.from({ length: 150 }, (_, i) => ({
          eventName: `Run ${start + i}`,
          wordpressEventId: 1000 + start + i,
          createdAt: now,
          updatedAt: now,
        })),
      );
    }
    const rows = Array.from({ length: total }, (_, i) => `${1000 + i},run${i}.example.org,`);
    const report = await importEvents(ctx, sourceFromText('events', `event_id,website,Email\n${rows.join('\n')}\n`), { actor });
    expect(report).toMatchObject({ updated: total, appliedRows: total, errors: [] });
    const stored = (await database.db('events').select('wordpressEventId', 'websiteUrl')) as Array<{
      wordpressEventId: number | string;
      websiteUrl: string;
    }>;
    const wrong = stored.filter((event) => event.websiteUrl !== `https://run${Number(event.wordpressEventId) - 1000}.example.org`);
    expect(wrong).toEqual([]);
  });

  it('keeps the first errors and counts the rest', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `${i + 1},,bad-address-${i}`);
    const report = await importEvents(ctx, sourceFromText('events', `event_id,website,Email\n${rows.join('\n')}\n`), {
      actor,
      maxErrors: 5,
    });
    expect(report.failedRows).toBe(30);
    expect(report.errors).toHaveLength(6);
    expect(report.errors[0]).toBe('Line 2: "bad-address-0" is not an email address');
    expect(report.errors[5]).toBe('…and 25 more failed rows');
  });

  it('gives new brands their ids in the order sent, not by the name read back (which the database may have changed)', async () => {
    // A lone surrogate never passes the import's rules; inserted directly, it shows the database storing another name.
    const names = ['Zeta Run', 'Cut \ud800', 'Alpha Run'];
    const ids = await withTransaction(ctx, (trx) =>
      insertRecordRows(
        trx,
        'brand',
        names.map((brandName) => ({ brandName, createdAt: now, updatedAt: now })),
      ),
    );
    const stored = new Map(
      (await database.db('brands').select('id', 'brandName')).map((row: { id: number; brandName: string }) => [
        Number(row.id),
        row.brandName,
      ]),
    );
    expect(ids).toHaveLength(3);
    expect(stored.get(ids[0]!)).toBe('Zeta Run');
    expect(stored.get(ids[1]!)).toMatch(/^Cut \ufffd+$/);
    expect(stored.get(ids[2]!)).toBe('Alpha Run');
  });
});
