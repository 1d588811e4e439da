import fc from 'fast-check';
import type { Knex } from 'knex';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encodeTimestamp } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import type { AppContext } from '@services/context.js';
import { CHANGES_BUCKET, rebuildDerivedData } from '@services/records/derived.js';
import { gramsOf, normaliseSearchText, searchDocument } from '@services/records/search-text.js';
import { createRecord, deleteRecord, listRecords } from '@services/records/service.js';
import { deleteRecordRow, insertRecordRow, insertRecordRows, setRecordColumnEach, updateRecordRows } from '@services/records/writes.js';
import { listQuery } from '../helpers/list-query.js';
import { getStats } from '@services/stats/service.js';
import { testServiceContext } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { storedPostings } from '../helpers/search-postings.js';

const actor = { userId: null, source: 'cli' as const, role: 'admin' as const };
const stamp = encodeTimestamp(new Date('2026-11-21T09:00:00Z'));

/** What the import and the sync do: write rows past the records service, through the record writes. */
async function importEvents(db: Knex, rows: Array<Record<string, unknown>>): Promise<number[]> {
  return withTransaction({ db }, async (trx) => {
    const ids: number[] = [];
    for (const row of rows)
      ids.push(
        await insertRecordRow(trx, 'event', { featuredRace: 0, totalAdvertisingSpend: '0', createdAt: stamp, updatedAt: stamp, ...row }),
      );
    return ids;
  });
}

const inTrx = <T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>) => withTransaction({ db }, work);

/** Everything derived, in a comparable form. */
async function derivedSnapshot(db: Knex) {
  const docs = await db('record_search_docs').orderBy(['kind', 'recordId']).select('kind', 'recordId', 'text', 'buckets');
  const grams = await storedPostings(db);
  // The change numbers are not derived from the rows: they count changes (a rebuild too).
  const counts = (await db('record_counts').orderBy(['kind', 'bucket']).select('kind', 'bucket', 'total')).filter(
    (row) => Number(row.total) !== 0 && row.bucket !== CHANGES_BUCKET,
  );
  const norm = (rows: Array<Record<string, unknown>>) =>
    rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' ? v : Number(v)])));
  return { docs: norm(docs), grams: norm(grams), counts: norm(counts) };
}

describe('search text', () => {
  it('lowercases, joins the fields and drops empty ones', () => {
    expect(searchDocument(['Harbour RUN', null, '', 'NSW', 42])).toBe('harbour run\nnsw\n42');
    expect(normaliseSearchText('É\u0301'.normalize('NFD'))).toBe(normaliseSearchText('É\u0301'));
  });

  it('makes the distinct trigrams of code points, emoji included', () => {
    expect(gramsOf('ab')).toEqual([]);
    expect(gramsOf('aaaa')).toHaveLength(1);
    expect(gramsOf('a😀bc')).toHaveLength(2);
  });

  it('keeps the keys stored indexes hold: 32-bit FNV-1a over three code points, in order of first occurrence', () => {
    // Changing them would leave every stored index unreadable without a rebuild (DERIVED_RULES_VERSION).
    expect(gramsOf('abc')).toEqual([440920331]);
    expect(gramsOf('zoë 🏃')).toEqual([377293815, 1911964061, 2982514567]);
    const fnv = (points: number[]) => points.reduce((hash, point) => Math.imul(hash ^ point, 0x01000193), 0x811c9dc5) >>> 0;
    const reference = (text: string) => {
      const points = Array.from(text, (ch) => ch.codePointAt(0)!);
      return [...new Set(points.slice(0, Math.max(0, points.length - 2)).map((_, i) => fnv(points.slice(i, i + 3))))];
    };
    // Surrogate pairs count once, lone surrogates as themselves; texts longer than any buffer kept between calls.
    for (const text of ['a😀bc😀bc', 'x\ud83c y\udfc3z', '🏃\ud83c', 'r'.repeat(3000) + '🏃'.repeat(900) + 'q', 'ab', ''])
      expect(gramsOf(text), JSON.stringify(text.slice(0, 20))).toEqual(reference(text));
  });
});

describe('maintained search and counts', () => {
  let database: TestDatabase;
  let ctx: AppContext;
  beforeAll(async () => {
    database = await createTestDatabase();
    ctx = testServiceContext(database);
  });
  afterAll(async () => database.destroy());
  beforeEach(async () => {
    for (const table of ['events', 'run_clubs', 'influencers']) await database.db(table).delete();
    await rebuildDerivedData(database.db);
  });

  it('the record writes make rows written by others searchable and counted, in their transaction', async () => {
    const [first, second] = (await importEvents(database.db, [
      { eventName: 'Kalgoorlie Gold Run', locationState: 'WA', wordpressEventId: 7781 },
      { eventName: 'Bay Dash', locationAddress: '5 Esplanade, Kalgoorlie', featuredRace: 1 },
    ])) as [number, number];
    const found = await listRecords(ctx, 'event', listQuery('event', { q: 'KALGOOR' }));
    expect(found.items.map((e) => e.id).sort()).toEqual([first, second].sort());
    expect(found.total).toBe(2);
    expect((await listRecords(ctx, 'event', listQuery('event', { q: '778' }))).items.map((e) => e.id)).toEqual([first]);
    expect((await listRecords(ctx, 'event', listQuery('event', { filter: 'featured' }))).total).toBe(1);
    expect((await listRecords(ctx, 'event', listQuery('event', { filter: 'regular' }))).total).toBe(1);
    expect((await getStats(ctx)).events).toBe(2);

    // An update by the sync: the old text stops matching, the new one matches, buckets move.
    await inTrx(database.db, (trx) =>
      updateRecordRows(trx, 'event', [second, second], { eventName: 'Coogee Dash', locationAddress: null, featuredRace: 0 }),
    );
    expect((await listRecords(ctx, 'event', listQuery('event', { q: 'kalgoor' }))).items.map((e) => e.id)).toEqual([first]);
    expect((await listRecords(ctx, 'event', listQuery('event', { q: 'coogee' }))).items.map((e) => e.id)).toEqual([second]);
    expect((await listRecords(ctx, 'event', listQuery('event', { filter: 'featured' }))).total).toBe(0);

    // A delete by someone else.
    await inTrx(database.db, (trx) => deleteRecordRow(trx, 'event', first));
    expect((await listRecords(ctx, 'event', listQuery('event', {}))).total).toBe(1);
    expect((await listRecords(ctx, 'event', listQuery('event', { q: 'gold' }))).total).toBe(0);
    expect(await derivedSnapshot(database.db)).toEqual(
      await (async () => {
        await rebuildDerivedData(database.db);
        return derivedSnapshot(database.db);
      })(),
    );
  });

  it('leaves the index as it was when a rebuild fails midway, and search keeps answering from it', async () => {
    const [id] = (await importEvents(database.db, [{ eventName: 'Mandurah Midway Run', locationState: 'WA' }])) as [number];
    const before = await derivedSnapshot(database.db);
    const failAtPostings = {
      onProgress: ({ phase }: { phase: string }) => {
        if (phase === 'events: postings') throw new Error('interrupted');
      },
    };
    await expect(rebuildDerivedData(database.db, undefined, failAtPostings)).rejects.toThrow('interrupted');
    expect(await derivedSnapshot(database.db)).toEqual(before);
    expect((await listRecords(ctx, 'event', listQuery('event', { q: 'midway' }))).items.map((e) => e.id)).toEqual([id]);
    // The next rebuild completes over whatever the failed one left behind.
    await rebuildDerivedData(database.db);
    expect(await derivedSnapshot(database.db)).toEqual(before);
  });

  it('keeps writes made while a rebuild reads the rows', async () => {
    const [kept, deleted] = (await importEvents(database.db, [{ eventName: 'Bunbury Steady Run' }, { eventName: 'Albany Gone Run' }])) as [
      number,
      number,
    ];
    let added = 0;
    let writes: Promise<void> | undefined;
    await rebuildDerivedData(database.db, undefined, {
      // Once the events have been read, and before the rebuilt index is in place, others write.
      onProgress: ({ phase }) => {
        if (phase !== 'events: postings' || writes) return;
        // Not awaited inside the hook: on SQLite the rebuild's transaction holds the only connection until it ends.
        writes = (async () => {
          [added] = (await importEvents(database.db, [{ eventName: 'Busselton Late Run' }])) as [number];
          await inTrx(database.db, (trx) => deleteRecordRow(trx, 'event', deleted));
          await inTrx(database.db, (trx) => updateRecordRows(trx, 'event', [kept], { eventName: 'Bunbury Renamed Run' }));
        })();
      },
    });
    await writes;
    expect((await listRecords(ctx, 'event', listQuery('event', { q: 'run' }))).total).toBe(2);
    expect((await listRecords(ctx, 'event', listQuery('event', { q: 'busselton' }))).items.map((e) => e.id)).toEqual([added]);
    expect((await listRecords(ctx, 'event', listQuery('event', { q: 'renamed' }))).items.map((e) => e.id)).toEqual([kept]);
    expect((await listRecords(ctx, 'event', listQuery('event', { q: 'albany' }))).total).toBe(0);
    expect((await listRecords(ctx, 'event', listQuery('event', {}))).total).toBe(2);
  });

  it('keeps the counts exact when others write while the rebuilt index is swapped in', async () => {
    await importEvents(database.db, [{ eventName: 'Geraldton Base Run', featuredRace: 1 }]);
    // The window between the swap and the recount is short: a few rebuilds make a write land in it.
    for (let round = 0; round < 10; round++) await rebuildWithWritesAtTheSwap();
    const exact = (await database.db('events').count({ n: '*' }).first()) as { n: number | string };
    expect((await listRecords(ctx, 'event', listQuery('event', {}))).total).toBe(Number(exact.n));
    expect((await listRecords(ctx, 'event', listQuery('event', { filter: 'featured' }))).total).toBe(Number(exact.n));
    expect(await derivedSnapshot(database.db)).toEqual(
      await (async () => {
        await rebuildDerivedData(database.db);
        return derivedSnapshot(database.db);
      })(),
    );
  });

  async function rebuildWithWritesAtTheSwap() {
    let writes: Promise<void> | undefined;
    let rebuilding = true;
    await rebuildDerivedData(database.db, undefined, {
      onProgress: ({ phase, done }) => {
        if (phase !== 'swapping in the new index' || done !== 0) return;
        // Until the rebuild ends: add a featured event that stays, and one that is deleted again.
        writes = (async () => {
          do {
            const [stays, goes] = (await importEvents(database.db, [
              { eventName: 'Geraldton Kept Run', featuredRace: 1 },
              { eventName: 'Geraldton Brief Run', featuredRace: 1 },
            ])) as [number, number];
            expect(stays).toBeGreaterThan(0);
            await inTrx(database.db, (trx) => deleteRecordRow(trx, 'event', goes));
          } while (rebuilding);
        })();
      },
    }).finally(() => {
      rebuilding = false;
    });
    await writes;
  }

  it('skips the reindex when a write changes no searched or counted column, and only then', async () => {
    const [id] = (await importEvents(database.db, [{ eventName: 'Esperance Run', locationState: 'WA' }])) as [number];
    const docQueries: string[] = [];
    const watch = (query: { sql: string }) => {
      if (query.sql.includes('record_search_docs')) docQueries.push(query.sql);
    };
    database.db.on('query', watch);
    try {
      await inTrx(database.db, (trx) =>
        updateRecordRows(trx, 'event', [id], { websiteUrl: 'https://esperance.example.org', updatedAt: stamp }),
      );
      await inTrx(database.db, (trx) =>
        setRecordColumnEach(trx, 'event', 'websiteUrl', new Map([[id, 'https://esperance.example.com']]), { updatedAt: stamp }),
      );
      expect(docQueries).toEqual([]);
      // A searched column among them: the change reaches the index.
      await inTrx(database.db, (trx) =>
        updateRecordRows(trx, 'event', [id], { websiteUrl: 'https://esperance.example.org', eventName: 'Esperance Coastal Run' }),
      );
      expect(docQueries.length).toBeGreaterThan(0);
    } finally {
      database.db.off('query', watch);
    }
    expect((await listRecords(ctx, 'event', listQuery('event', { q: 'coastal' }))).items.map((e) => e.id)).toEqual([id]);
  });

  it('rolls the derived data back with the writer that fails', async () => {
    await expect(
      inTrx(database.db, async (trx) => {
        await insertRecordRow(trx, 'event', {
          eventName: 'Ghost Run',
          featuredRace: 0,
          totalAdvertisingSpend: '0',
          createdAt: stamp,
          updatedAt: stamp,
        });
        throw new Error('import failed half way');
      }),
    ).rejects.toThrow('import failed half way');
    expect(await listRecords(ctx, 'event', listQuery('event', { q: 'ghost' }))).toEqual({ items: [], total: 0, next: null, prev: null });
    expect((await getStats(ctx)).events).toBe(0);
  });

  it('counts run clubs per type filter, and the type filter lists only clubs of that type', async () => {
    const club = (name: string, clubType: string[]) => ({ clubName: name, clubType });
    await createRecord(ctx, actor, 'runclub', club('Dirt Devils', ['trail', 'social']));
    await createRecord(ctx, actor, 'runclub', club('Asphalt Angels', ['road']));
    const both = await createRecord(ctx, actor, 'runclub', club('All Rounders', ['road', 'trail']));
    expect((await listRecords(ctx, 'runclub', listQuery('runclub', { type: 'trail' }))).total).toBe(2);
    expect((await listRecords(ctx, 'runclub', listQuery('runclub', { type: 'trail' }))).items.map((c) => c.clubName).sort()).toEqual([
      'All Rounders',
      'Dirt Devils',
    ]);
    expect((await listRecords(ctx, 'runclub', listQuery('runclub', { type: 'track' }))).total).toBe(0);
    expect((await listRecords(ctx, 'runclub', listQuery('runclub', { type: 'road', q: 'angel' }))).items.map((c) => c.clubName)).toEqual([
      'Asphalt Angels',
    ]);
    await deleteRecord(ctx, actor, 'runclub', String(both.id));
    expect((await listRecords(ctx, 'runclub', listQuery('runclub', { type: 'road' }))).total).toBe(1);
    expect((await getStats(ctx)).runClubs).toBe(2);
  });

  it('finds exactly what a naive case-insensitive substring match finds, and keeps what a rebuild would build', async () => {
    // Few letters, so queries hit shared trigrams and the exact check has to drop false candidates.
    const word = fc.stringMatching(/^[abcAB ]{0,9}$/);
    const ops = fc.array(
      fc.oneof(
        fc.record({ op: fc.constant('create' as const), first: word, last: word, handle: fc.option(word, { nil: null }) }),
        fc.record({ op: fc.constant('delete' as const), index: fc.nat() }),
        fc.record({ op: fc.constant('rename' as const), index: fc.nat(), first: word }),
      ),
      { maxLength: 12 },
    );
    await fc.assert(
      fc.asyncProperty(ops, fc.array(fc.stringMatching(/^[abcAB ]{1,5}$/), { minLength: 1, maxLength: 4 }), async (steps, queries) => {
        await database.db('influencers').delete();
        await rebuildDerivedData(database.db, ['influencer']);
        const ids: number[] = [];
        for (const step of steps) {
          if (step.op === 'create') {
            const firstName = step.first.trim() || 'x';
            const lastName = step.last.trim() || 'y';
            ids.push((await createRecord(ctx, actor, 'influencer', { firstName, lastName, instagramHandle: step.handle })).id);
          } else if (ids.length > 0) {
            const id = ids[step.index % ids.length]!;
            if (step.op === 'delete') {
              await deleteRecord(ctx, actor, 'influencer', String(id));
              ids.splice(ids.indexOf(id), 1);
            } else {
              // A rename by "the sync": written directly, then announced.
              await inTrx(database.db, (trx) => updateRecordRows(trx, 'influencer', [id], { firstName: step.first.trim() || 'z' }));
            }
          }
        }
        const rows = await database.db('influencers').select('id', 'firstName', 'lastName', 'instagramHandle', 'influencerType');
        for (const query of queries) {
          const needle = query.trim().toLowerCase();
          const expected = rows
            .filter((r) =>
              [`${r.firstName} ${r.lastName}`, r.instagramHandle ?? '', r.influencerType].some((field) =>
                String(field).toLowerCase().includes(needle),
              ),
            )
            .map((r) => Number(r.id))
            .sort((a, b) => b - a);
          const page = await listRecords(ctx, 'influencer', listQuery('influencer', { q: query, limit: '100' }));
          expect(page.items.map((i) => i.id)).toEqual(expected);
          expect(page.total).toBe(expected.length);
        }
        expect((await getStats(ctx)).influencers).toBe(rows.length);
        const incremental = await derivedSnapshot(database.db);
        await rebuildDerivedData(database.db, ['influencer']);
        expect(await derivedSnapshot(database.db)).toEqual(incremental);
      }),
      { numRuns: database.dialect === 'mysql' ? 8 : 25 },
    );
  });

  it('keeps packed postings exact across blocks, bitmaps and lists, through edits and deletes', async () => {
    // 700 influencers span three blocks of 256 ids; the common surname's grams fill bitmaps, the handles stay lists.
    const ids = await inTrx(database.db, (trx) =>
      insertRecordRows(
        trx,
        'influencer',
        Array.from({ length: 700 }, (_, i) => ({
          firstName: `Pat${i}`,
          lastName: i % 3 === 0 ? 'Quokka' : 'Wombat',
          instagramHandle: i % 50 === 0 ? `@rare${i}zz` : null,
          createdAt: stamp,
          updatedAt: stamp,
        })),
      ),
    );
    const everyThird = ids.filter((_, i) => i % 3 === 0);
    // Most of one block's quokkas become wombats (its bitmap drops under 32 ids), and every rare handle goes.
    await inTrx(database.db, (trx) => updateRecordRows(trx, 'influencer', everyThird.slice(10, 80), { lastName: 'Wombat' }));
    await inTrx(database.db, (trx) => updateRecordRows(trx, 'influencer', ids, { instagramHandle: null }));
    await inTrx(database.db, async (trx) => {
      for (const id of ids.slice(600)) await deleteRecordRow(trx, 'influencer', id);
    });
    const expectedQuokkas = [...everyThird.slice(0, 10), ...everyThird.slice(80)].filter((id) => id < ids[600]!);
    const quokkas = await Promise.all(
      ['0', '100'].map((offset) => listRecords(ctx, 'influencer', listQuery('influencer', { q: 'QUOKKA', limit: '100', offset }))),
    );
    expect(quokkas.flatMap((page) => page.items.map((i) => i.id)).sort((a, b) => a - b)).toEqual(expectedQuokkas);
    expect(quokkas[0]!.total).toBe(expectedQuokkas.length);
    expect((await listRecords(ctx, 'influencer', listQuery('influencer', { q: 'rare' }))).total).toBe(0);
    expect((await listRecords(ctx, 'influencer', listQuery('influencer', { q: 'pat59' }))).items.map((i) => i.firstName).sort()).toEqual(
      ['Pat59', ...Array.from({ length: 10 }, (_, d) => `Pat59${d}`)].sort(),
    );
    const rows = (await database.db('record_search_grams').select('ids')) as Array<{ ids: Uint8Array }>;
    expect(rows.every((row) => row.ids.length > 0)).toBe(true);
    expect(rows.some((row) => row.ids.length === 32)).toBe(true);
    const incremental = await derivedSnapshot(database.db);
    await rebuildDerivedData(database.db);
    expect(await derivedSnapshot(database.db)).toEqual(incremental);
  });

  it('merges a bulk batch into blocks that already hold postings (the bulk path of an import)', async () => {
    // Letters from a fixed sequence: thousands of distinct trigrams, so the batch's keys pass the bulk threshold.
    let seed = 7;
    const letters = () =>
      Array.from({ length: 8 }, () => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return String.fromCharCode(97 + (seed % 26));
      }).join('');
    const rowsOf = (count: number) =>
      Array.from({ length: count }, () => ({ firstName: letters(), lastName: letters(), createdAt: stamp, updatedAt: stamp }));
    // A first batch leaves the last block part full; the second fills it and goes on past it.
    await inTrx(database.db, (trx) => insertRecordRows(trx, 'influencer', rowsOf(100)));
    const second = rowsOf(3000);
    await inTrx(database.db, (trx) => insertRecordRows(trx, 'influencer', second));
    const rows = await database.db('influencers').select('id', 'firstName', 'lastName');
    for (const probe of [rows[5]!, rows[150]!, rows[2999]!]) {
      const needle = String(probe.firstName).slice(2, 7);
      const expected = rows.filter((r) => `${r.firstName} ${r.lastName}`.includes(needle)).length;
      expect((await listRecords(ctx, 'influencer', listQuery('influencer', { q: needle }))).total).toBe(expected);
    }
    const incremental = await derivedSnapshot(database.db);
    await rebuildDerivedData(database.db);
    expect(await derivedSnapshot(database.db)).toEqual(incremental);
  });

  it('keeps every posting when writers change records of one block at the same time', async () => {
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createRecord(ctx, actor, 'influencer', { firstName: `Racer${i}`, lastName: 'Numbat' })),
    );
    await Promise.all(
      created.map((influencer, i) =>
        i % 2 === 0
          ? inTrx(database.db, (trx) => updateRecordRows(trx, 'influencer', [influencer.id], { lastName: 'Bilby' }))
          : createRecord(ctx, actor, 'influencer', { firstName: `Late${i}`, lastName: 'Numbat' }),
      ),
    );
    expect((await listRecords(ctx, 'influencer', listQuery('influencer', { q: 'numbat' }))).total).toBe(12);
    expect((await listRecords(ctx, 'influencer', listQuery('influencer', { q: 'bilby' }))).total).toBe(6);
    const incremental = await derivedSnapshot(database.db);
    await rebuildDerivedData(database.db);
    expect(await derivedSnapshot(database.db)).toEqual(incremental);
  });

  it('pages through matches with the total of all matches, in every sort order', async () => {
    const ids = await importEvents(
      database.db,
      Array.from({ length: 7 }, (_, i) => ({ eventName: `Zed Run ${String.fromCharCode(71 - i)}`, eventStartDate: `2026-0${i + 1}-01` })),
    );
    await importEvents(database.db, [{ eventName: 'Other Race' }]);
    const page2 = await listRecords(ctx, 'event', listQuery('event', { q: 'zed', limit: '3', offset: '3' }));
    expect(page2.total).toBe(7);
    expect(page2.items.map((e) => e.id)).toEqual([...ids].reverse().slice(3, 6));
    const beyond = await listRecords(ctx, 'event', listQuery('event', { q: 'zed', limit: '3', offset: '30' }));
    expect(beyond).toEqual({ items: [], total: 7, next: null, prev: null });
    expect(
      (await listRecords(ctx, 'event', listQuery('event', { q: 'zed', sort: 'eventName', limit: '2' }))).items.map((e) => e.eventName),
    ).toEqual(['Zed Run A', 'Zed Run B']);
    expect(
      (await listRecords(ctx, 'event', listQuery('event', { q: 'zed', sort: 'eventStartDate', dir: 'desc', limit: '1' }))).items.map(
        (e) => e.eventStartDate,
      ),
    ).toEqual(['2026-07-01']);
    expect((await listRecords(ctx, 'event', listQuery('event', { sort: 'eventStartDate', dir: 'desc' }))).items.at(-1)!.eventName).toBe(
      'Other Race',
    );
  });

  it('answers deep pages (offset past the deferred-join threshold) in the same order as a full sort', async () => {
    const names = Array.from({ length: 260 }, (_, i) => `Deep ${String((i * 37) % 260).padStart(3, '0')}`);
    const ids = await importEvents(
      database.db,
      names.map((eventName, i) => ({ eventName, featuredRace: i % 3 === 0 ? 1 : 0 })),
    );
    const byName = names.map((name, i) => ({ name, id: ids[i]! })).sort((a, b) => a.name.localeCompare(b.name));
    const page = await listRecords(ctx, 'event', listQuery('event', { sort: 'eventName', offset: '250', limit: '5' }));
    expect(page.items.map((e) => e.eventName)).toEqual(byName.slice(250, 255).map((e) => e.name));
    expect(page.total).toBe(260);
    const newest = await listRecords(ctx, 'event', listQuery('event', { offset: '255', limit: '10' }));
    expect(newest.items.map((e) => e.id)).toEqual([...ids].reverse().slice(255));
    const featured = await listRecords(ctx, 'event', listQuery('event', { filter: 'featured', offset: '200', limit: '100' }));
    expect(featured.total).toBe(87);
    expect(featured.items).toEqual([]);
    const searched = await listRecords(ctx, 'event', listQuery('event', { q: 'deep', offset: '250', limit: '100' }));
    expect(searched.items.map((e) => e.id)).toEqual([...ids].reverse().slice(250));
    expect(searched.total).toBe(260);
    // 260 imported rows and five deep reads: minutes, not seconds, on MariaDB when the machine is busy.
  }, 120_000);

  it('treats a two-character query as a substring too (scan of the compact text table)', async () => {
    await importEvents(database.db, [{ eventName: 'Xq Marks' }, { eventName: 'Plain' }]);
    expect((await listRecords(ctx, 'event', listQuery('event', { q: 'XQ' }))).items.map((e) => e.eventName)).toEqual(['Xq Marks']);
    expect((await listRecords(ctx, 'event', listQuery('event', { q: 'n' }))).total).toBe(1);
    // A line break in the query cannot join two fields.
    await importEvents(database.db, [{ eventName: 'Edge', locationState: 'WA' }]);
    expect((await listRecords(ctx, 'event', listQuery('event', { q: 'edge\nwa' }))).total).toBe(0);
    expect((await listRecords(ctx, 'event', listQuery('event', { q: 'edge' }))).total).toBe(1);
  });

  it('stays exact when the gram statistics it planned with are out of date', async () => {
    const [first] = await importEvents(database.db, [{ eventName: 'Quokka Quest' }]);
    expect((await listRecords(ctx, 'event', listQuery('event', { q: 'okka qu' }))).total).toBe(1);
    // Statistics now say these grams have postings; the data moves on underneath them.
    await inTrx(database.db, (trx) => deleteRecordRow(trx, 'event', first!));
    expect(await listRecords(ctx, 'event', listQuery('event', { q: 'okka qu' }))).toEqual({ items: [], total: 0, next: null, prev: null });
    const later = await importEvents(database.db, [{ eventName: 'Quokka Quest Two' }, { eventName: 'Big Quokka Quest' }]);
    const found = await listRecords(ctx, 'event', listQuery('event', { q: 'okka qu' }));
    expect(found.items.map((e) => e.id)).toEqual([...later].reverse());
  });

  it('heals a missing counter row from an exact count', async () => {
    await importEvents(database.db, [{ eventName: 'One', featuredRace: 1 }]);
    await database.db('record_counts').delete();
    await importEvents(database.db, [{ eventName: 'Two', featuredRace: 1 }]);
    expect((await getStats(ctx)).events).toBe(2);
    expect((await listRecords(ctx, 'event', listQuery('event', { filter: 'featured' }))).total).toBe(2);
  });
});
