import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOfDb } from '@db/knex.js';
import { withTransaction } from '@db/transaction.js';
import { listDirectory } from '@services/contacts/directory.js';
import { insertContact, insertContactRows, type ContactInsert } from '@services/contacts/writes.js';
import { CONTACT_INDEX } from '@services/records/definitions.js';
import { CHANGES_BUCKET, COUNTS, DOCS, GRAMS, rebuildDerivedData } from '@services/records/derived.js';
import { insertRecordRow, updateRecordRows } from '@services/records/writes.js';
import { globalSearch } from '@services/search/service.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { explainPlan, statementsSentBy, testDialect } from '../helpers/db.js';
import { storedPostings } from '../helpers/search-postings.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];
interface Group {
  type: string;
  total: number;
  items: Array<{ id: number; title: string }>;
}

/** The contacts' derived rows as stored, to compare the kept index with one rebuilt from the rows. */
async function contactIndexOf(db: Knex) {
  const code = CONTACT_INDEX.code;
  return {
    docs: await db(DOCS).where({ kind: code }).orderBy('recordId').select('recordId', 'text', 'buckets'),
    grams: (await storedPostings(db, code)).map((posting) => `${posting.gram}:${posting.recordId}`),
    counts: await db(COUNTS).where({ kind: code }).whereNot({ bucket: CHANGES_BUCKET }).orderBy('bucket').select('bucket', 'total'),
  };
}

/** `count` contacts of a brand as an import writes them; `named(i)` gives the i-th its names, address and job. */
function brandContacts(
  brandId: number,
  count: number,
  named: (i: number) => Pick<ContactInsert, 'firstName' | 'lastName' | 'email' | 'jobTitle'>,
): ContactInsert[] {
  return Array.from({ length: count }, (_, i) => ({
    ...named(i),
    mailchimpTags: '[]',
    entityType: 'brand',
    entityId: brandId,
    isPrimary: 0,
    createdAt: '2026-11-21 09:00:00',
    updatedAt: '2026-11-21 09:00:00',
    createdBy: null,
  }));
}

describe('contacts in the search index', () => {
  let t: TestApp;
  let agent: Agent;
  let brandId: number;
  let eventId: number;
  beforeAll(async () => {
    t = await createTestApp();
    // An admin: restoring from Recently deleted is theirs.
    agent = (await t.signedInAgent('admin@example.org', 'admin')).agent;
    brandId = (await agent.post('/api/brands').send({ brandName: 'Stride Shoes' })).body.id;
    eventId = (await agent.post('/api/events').send({ eventName: 'Quokka Dash' })).body.id;
  });
  afterAll(async () => t.close());

  /** Contact first names the palette and the directory find for a term; both must agree. */
  const found = async (q: string) => {
    const palette = await agent.get(`/api/search?q=${encodeURIComponent(q)}&limit=20`);
    expect(palette.status, palette.text).toBe(200);
    const group = (palette.body.groups as Group[]).find((g) => g.type === 'contact')!;
    const directory = await agent.get(`/api/contacts?q=${encodeURIComponent(q)}&limit=100`);
    expect(directory.status, directory.text).toBe(200);
    const names = (directory.body.items as Array<{ firstName: string }>).map((c) => c.firstName);
    expect(
      group.items.map((item) => item.title.split(' ')[0]),
      q,
    ).toEqual(names);
    expect(group.total, q).toBe(directory.body.total);
    return names;
  };
  const create = async (body: Record<string, unknown>) => {
    const res = await agent.post('/api/contacts').send({ entityType: 'brand', entityId: brandId, ...body });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: number; version?: string; updatedAt: string };
  };

  it('finds a contact by each searched field, as a substring, without case', async () => {
    await create({
      firstName: 'Wilhelmina',
      lastName: 'Zapata',
      email: 'w.zapata@stride.example',
      phone: '+61 400 987 654',
      jobTitle: 'Sponsorship Wrangler',
      mailchimpTags: ['Podium-VIP', 'newsletter'],
    });
    for (const term of ['WILHELM', 'zapat', 'mina zap', 'w.zapata@', 'stride.exa', '987 65', 'ship wrang', 'podium-v', 'vip']) {
      expect(await found(term), term).toEqual(['Wilhelmina']);
    }
    // Short terms (1–2 characters) take the scan of the compact documents: still the same answer.
    expect(await found('zA')).toEqual(['Wilhelmina']);
    // A match never spans two fields (name and email, job title and a tag).
    expect(await found('zapata w.zap')).toEqual([]);
    expect(await found('wrangler podium')).toEqual([]);
  });

  it('follows creating, editing and deleting a contact', async () => {
    const contact = await create({ firstName: 'Oswin', lastName: 'Quilliam', email: 'oswin@stride.example' });
    expect(await found('quilliam')).toEqual(['Oswin']);
    const edited = await agent.put(`/api/contacts/${contact.id}`).send({ lastName: 'Fenwick', jobTitle: 'Buyer' });
    expect(edited.status, edited.text).toBe(200);
    expect(await found('quilliam')).toEqual([]);
    expect(await found('fenwick')).toEqual(['Oswin']);
    expect(await found('buyer')).toEqual(['Oswin']);
    // Moving it to another owner keeps it findable, named with the new owner.
    const moved = await agent.put(`/api/contacts/${contact.id}`).send({ entityType: 'event', entityId: eventId });
    expect(moved.status, moved.text).toBe(200);
    const [row] = (await agent.get('/api/contacts?q=fenwick')).body.items as Array<{ owner: { name: string } }>;
    expect(row!.owner.name).toBe('Quokka Dash');
    expect((await agent.delete(`/api/contacts/${contact.id}`)).status).toBe(204);
    expect(await found('fenwick')).toEqual([]);
  });

  it('follows bulk tagging', async () => {
    const a = await create({ firstName: 'Tamsin', lastName: 'Ardent' });
    const b = await create({ firstName: 'Ulric', lastName: 'Ardent', mailchimpTags: ['oldlist'] });
    const res = await agent.post('/api/contacts/bulk-tags').send({ ids: [a.id, b.id], add: ['Harbourcrew'], remove: ['oldlist'] });
    expect(res.status, res.text).toBe(200);
    expect(await found('harbourcrew')).toEqual(['Ulric', 'Tamsin']);
    expect(await found('oldlist')).toEqual([]);
  });

  it('follows both CSV imports', async () => {
    const brands = await agent.post('/api/brands/bulk-import').send({
      data: [{ Brand: 'Yonder Gear', 'First Name': 'Xanthe', 'Last Name': 'Imported', Email: 'xanthe@yonder.example' }],
    });
    expect(brands.status, brands.text).toBe(200);
    expect(await found('xanthe@yonder')).toEqual(['Xanthe']);
    await withTransaction({ db: t.database.db }, (trx) => updateRecordRows(trx, 'event', [eventId], { wordpressEventId: 4242 }));
    const events = await agent.post('/api/events/bulk-import').send({
      data: [
        {
          event_id: '4242',
          website: 'https://quokka.example',
          'First Name': 'Yusuf',
          'Last Name': 'Imported',
          Email: 'yusuf@quokka.example',
        },
      ],
    });
    expect(events.status, events.text).toBe(200);
    expect(events.body.created, events.text).toBe(1);
    expect(await found('imported')).toEqual(['Yusuf', 'Xanthe']);
  });

  it("follows a record's delete (its contacts go with it) and its restore from Recently deleted", async () => {
    const owner = (await agent.post('/api/media').send({ mediaName: 'Vellum Weekly' })).body.id as number;
    await agent.post('/api/contacts').send({ entityType: 'media', entityId: owner, firstName: 'Zebedee', lastName: 'Vellum' });
    expect(await found('zebedee')).toEqual(['Zebedee']);
    expect((await agent.delete(`/api/media/${owner}`)).status).toBe(204);
    expect(await found('zebedee')).toEqual([]);
    const listed = await agent.get('/api/deleted');
    expect(listed.status, listed.text).toBe(200);
    const deleted = listed.body as { items: Array<{ id: number; entityId: number }> } | Array<{ id: number; entityId: number }>;
    const entry = (Array.isArray(deleted) ? deleted : deleted.items).find((item) => item.entityId === owner)!;
    const restored = await agent.post(`/api/deleted/${entry.id}/restore`).send({});
    expect(restored.status, restored.text).toBe(200);
    expect(await found('zebedee')).toEqual(['Zebedee']);
  });

  it("remembers a search's totals only until the type's documents change", async () => {
    const totals = async () =>
      Object.fromEntries(((await agent.get('/api/search?q=nimbus')).body.groups as Group[]).map((g) => [g.type, g.total]));
    const first = (await agent.post('/api/events').send({ eventName: 'Nimbus Run' })).body.id as number;
    expect((await totals()).event).toBe(1);
    expect((await totals()).event).toBe(1);
    await agent.post('/api/events').send({ eventName: 'Nimbus Night Run' });
    expect((await totals()).event).toBe(2);
    const renamed = await agent.put(`/api/events/${first}`).send({ eventName: 'Cirrus Run' });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await totals()).event).toBe(1);
    await create({ firstName: 'Nimbus', lastName: 'Contact' });
    expect(await totals()).toMatchObject({ event: 1, contact: 1 });
  });

  it('writes the search rows of a bulk insert in its transaction: none after a rollback, all after the commit', async () => {
    const db = t.database.db;
    const before = await contactIndexOf(db);
    // Enough postings for the bulk path (LOAD DATA on MariaDB), and text its format must escape (tab, backslash).
    const rows = brandContacts(brandId, 300, (i) => ({
      firstName: `Bulkname${i}`,
      lastName: i % 50 === 0 ? 'Tab\tSlash\\' : 'Lee',
      jobTitle: 'Coach',
      email: `bulk${i}@stride.example`,
    }));
    const stopped = withTransaction({ db }, async (trx) => {
      await insertContactRows(trx, rows);
      throw new Error('stopped after the writes');
    });
    await expect(stopped).rejects.toThrow('stopped after the writes');
    expect(await contactIndexOf(db)).toEqual(before);
    await withTransaction({ db }, (trx) => insertContactRows(trx, rows));
    const kept = await contactIndexOf(db);
    expect(kept.docs.length).toBe(before.docs.length + rows.length);
    expect(kept.docs.map((doc: { text: string }) => doc.text)).toContain('bulkname50 tab\tslash\\\nbulk50@stride.example\ncoach');
    expect(await found('bulkname299')).toEqual(['Bulkname299']);
    expect(await found('slash\\')).toEqual(['Bulkname250', 'Bulkname200', 'Bulkname150', 'Bulkname100', 'Bulkname50', 'Bulkname0']);
    await rebuildDerivedData(db);
    expect(await contactIndexOf(db)).toEqual(kept);
  });

  it('keeps every contact findable when a bulk insert and single contact writes run at the same time', async () => {
    const db = t.database.db;
    const edited = await create({ firstName: 'Pellow', lastName: 'Stint', email: 'pellow@stride.example' });
    // Enough rows for an import batch's path (blocks above the highest indexed id are not read), while people add
    // and edit contacts through the API; on MariaDB the two lock the same index in the same order.
    const rows = brandContacts(brandId, 600, (i) => ({
      firstName: `Tandem${i}`,
      lastName: 'Loader',
      jobTitle: null,
      email: `tandem${i}@stride.example`,
    }));
    const singles = Array.from({ length: 6 }, (_, i) => create({ firstName: `Solo${i}`, lastName: 'Sprinter' }));
    const [, edit] = await Promise.all([
      withTransaction({ db }, (trx) => insertContactRows(trx, rows)),
      agent.put(`/api/contacts/${edited.id}`).send({ lastName: 'Relay' }),
      ...singles,
    ]);
    expect(edit.status, edit.text).toBe(200);
    expect((await agent.get('/api/contacts?q=loader&limit=1')).body.total).toBe(600);
    expect(await found('sprinter')).toHaveLength(6);
    expect(await found('relay')).toEqual(['Pellow']);
    const kept = await contactIndexOf(db);
    await rebuildDerivedData(db);
    expect(await contactIndexOf(db)).toEqual(kept);
  });

  // Only MariaDB lets a transaction that has read go on to write after another one committed (SQLite refuses it).
  it.runIf(testDialect === 'mysql')(
    "MariaDB: a bulk insert whose transaction began before another contact's write merges that write's postings",
    async () => {
      const db = t.database.db;
      // The other contact opens a block of ids of its own, above every indexed one.
      const highest = Number(((await db('contacts').max({ id: 'id' }).first()) as { id: number }).id);
      await db.raw('ALTER TABLE contacts AUTO_INCREMENT = ?', [(Math.floor(highest / 256) + 1) * 256]);
      const trx = await db.transaction();
      try {
        // This transaction's snapshot is taken now, before the other contact exists.
        await trx('contacts').count({ n: '*' });
        const other = await withTransaction({ db }, (other) =>
          insertContact(other, {
            firstName: 'Earlybird',
            lastName: 'Loader',
            email: 'earlybird@stride.example',
            entityType: 'brand',
            entityId: brandId,
            createdAt: '2026-11-26 09:00:00',
            updatedAt: '2026-11-26 09:00:00',
          }),
        );
        expect(other % 256).toBe(0);
        // The same block, the same trigrams (…@stride.example): its posting rows must be read, not written again.
        await insertContactRows(
          trx,
          brandContacts(brandId, 300, (i) => ({
            firstName: `Latecomer${i}`,
            lastName: 'Loader',
            jobTitle: null,
            email: `latecomer${i}@stride.example`,
          })),
        );
        await trx.commit();
      } catch (error) {
        await trx.rollback();
        throw error;
      }
      expect(await found('earlybird')).toEqual(['Earlybird']);
      expect((await agent.get('/api/contacts?q=latecomer&limit=1')).body.total).toBe(300);
      const kept = await contactIndexOf(db);
      await rebuildDerivedData(db);
      expect(await contactIndexOf(db)).toEqual(kept);
    },
  );

  it('keeps the index equal to one rebuilt from the rows (pacer db reindex), counts included', async () => {
    const db = t.database.db;
    const kept = await contactIndexOf(db);
    expect(kept.docs.length).toBe(Number(((await db('contacts').count({ n: '*' }).first()) as { n: number }).n));
    expect(kept.counts).toEqual([{ bucket: 'all', total: kept.docs.length }]);
    await db(GRAMS).where({ kind: CONTACT_INDEX.code }).delete();
    await db(DOCS).where({ kind: CONTACT_INDEX.code }).delete();
    expect((await agent.get('/api/contacts?q=zebedee')).body.items).toEqual([]);
    await rebuildDerivedData(db);
    expect(await contactIndexOf(db)).toEqual(kept);
    expect(await found('zebedee')).toEqual(['Zebedee']);
    // The unfiltered directory's total is the kept count.
    expect((await agent.get('/api/contacts')).body.total).toBe(kept.docs.length);
  });
});

describe('contact search reads the index, not the contacts table', () => {
  let t: TestApp;
  const VOLUME = 3000;
  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    await withTransaction({ db }, async (trx) => {
      const brand = await insertRecordRow(trx, 'brand', {
        brandName: 'Plan Shoes',
        totalAdvertisingSpend: '0.00',
        paymentStatus: 'current',
        createdAt: '2026-11-21 09:00:00',
        updatedAt: '2026-11-21 09:00:00',
      });
      const rows = brandContacts(brand, VOLUME, (i) => ({
        firstName: `First${i}`,
        lastName: i % 100 === 0 ? `Rarename${i}` : `Common${i % 7}`,
        jobTitle: 'Coach',
        email: `person${i}@plan.example`,
      }));
      await insertContactRows(trx, rows);
    });
    if (dialectOfDb(db) === 'mysql') for (const table of ['contacts', DOCS, GRAMS]) await db.raw('ANALYZE TABLE ??', [table]);
    else await db.raw('ANALYZE');
  }, 120_000);
  afterAll(async () => t.close());

  it('answers the palette and the directory search from the index, reading contacts by id only', async () => {
    const db = t.database.db;
    const statements = await statementsSentBy(db, async () => {
      const page = await listDirectory(t.ctx, { q: 'rarename' });
      expect(page.total).toBe(VOLUME / 100);
      // Filtered and sorted: the matches joined to their contacts by id.
      const filtered = await listDirectory(t.ctx, { q: 'rarename', ownerType: 'brand', sort: 'name', dir: 'desc' });
      expect(filtered.items.map((c) => c.lastName).slice(0, 2)).toEqual(['Rarename900', 'Rarename800']);
      expect(filtered.total).toBe(VOLUME / 100);
      const search = await globalSearch(t.ctx, { q: 'rarename2' });
      expect(search.groups.find((g) => g.type === 'contact')!.total).toBe(11);
    });
    const reading = statements.filter((s) => /\bcontacts\b/i.test(s.sql));
    expect(reading.length).toBeGreaterThan(0);
    for (const statement of reading) {
      const plan = (await explainPlan(db, statement)).join('\n');
      const label = `${statement.sql}\n${plan}`;
      // MariaDB: no full scan (ALL) nor full index scan (index) of the contacts; SQLite: no SCAN of them.
      expect(plan, label).not.toMatch(/^c(ontacts)? type=(ALL|index) /m);
      expect(plan, label).not.toMatch(/SCAN (c|contacts)\b(?! USING)/);
      expect(plan, label).not.toMatch(/SCAN (c|contacts) USING (COVERING )?INDEX/);
    }
  });
});
