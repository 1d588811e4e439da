import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOfDb } from '@db/knex.js';
import { withTransaction } from '@db/transaction.js';
import { definitionOf } from '@services/records/definitions.js';
import { listRecords } from '@services/records/service.js';
import { insertRecordRows } from '@services/records/writes.js';
import { readListQuery } from '@shared/list-query.js';
import { RECORD_TYPE_INFO, RECORD_TYPES, type RecordType } from '@shared/record-types.js';
import { SORTS, sortKeysOf } from '@shared/records/sorts.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { statementsSentBy } from '../helpers/db.js';
import { expectedOrder, expectOrderedByIndex, type ListItem } from '../helpers/list-order.js';
import { expectBadCursorsRefused } from '../helpers/list-page.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

/**
 * Stored values per sortable column, with repeats (ties the id must break) and nulls where the column allows them.
 * Text values share one letter case so both dialects' collations order them alike.
 */
const POOLS: Record<string, unknown[]> = {
  eventName: ['Beta', 'Alpha', 'Beta'],
  businessName: ['Beta', 'Alpha', 'Beta'],
  clubName: ['Beta', 'Alpha', 'Beta'],
  brandName: ['Beta', 'Alpha', 'Beta'],
  mediaName: ['Beta', 'Alpha', 'Beta'],
  lastName: ['Nguyen', 'Adams', 'Nguyen'],
  firstName: ['Zoe', 'Amy'],
  eventStartDate: ['2026-12-01', null, '2026-01-05', '2026-12-01'],
  locationState: ['VIC', null, 'NSW', 'VIC'],
  featuredRace: [1, 0, 0],
  totalAdvertisingSpend: ['100.00', '9.50', '100.00', '0.00'],
  wordpressLastSync: ['2026-11-01 10:00:00.000', null, '2026-10-01 10:00:00.000'],
  updatedAt: ['2026-11-02 10:00:00.000', '2026-11-01 10:00:00.000', '2026-11-02 10:00:00.000'],
  createdAt: ['2026-11-01 10:00:00.000'],
  professionType: ['coach', null, 'trainer', 'coach'],
  subscriptionStatus: ['active', 'expired', 'active'],
  totalPayments: ['20.00', '3.00', '20.00'],
  lastNewsletterInclusion: ['2026-05-01', null, '2026-04-01', '2026-05-01'],
  membershipCount: [40, null, 7, 40],
  paymentStatus: ['current', 'overdue', 'current'],
  industryCategory: ['Shoes', null, 'Apparel', 'Shoes'],
  lastCampaignEndDate: ['2026-05-01', null, '2026-04-01'],
  industry: ['Radio', null, 'Print', 'Radio'],
  influencerType: ['influencer', 'athlete', 'influencer'],
  instagramHandle: ['runner', null, 'athlete', 'runner'],
  email: ['b@example.org', null, 'a@example.org', 'b@example.org'],
};

const ROWS = 7;

/** The stored columns each type's rows get: every pooled column the type has. */
const COLUMNS: Record<RecordType, string[]> = {
  event: ['eventName', 'eventStartDate', 'locationState', 'featuredRace', 'totalAdvertisingSpend', 'wordpressLastSync'],
  professional: ['businessName', 'professionType', 'locationState', 'subscriptionStatus', 'totalPayments', 'lastNewsletterInclusion'],
  runclub: ['clubName', 'locationState', 'membershipCount', 'paymentStatus', 'totalPayments', 'lastNewsletterInclusion'],
  brand: ['brandName', 'industryCategory', 'locationState', 'totalAdvertisingSpend', 'paymentStatus', 'lastCampaignEndDate'],
  media: ['mediaName', 'industry'],
  influencer: ['lastName', 'firstName', 'influencerType', 'instagramHandle', 'email'],
};

function rowsOf(kind: RecordType, count: number, mysql: boolean): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, i) => {
    const row: Record<string, unknown> = {};
    for (const column of [...COLUMNS[kind], 'updatedAt', 'createdAt']) {
      const pool = POOLS[column]!;
      let value = pool[i % pool.length];
      // SQLite stores timestamps as ISO text, MariaDB as DATETIME(3).
      if (!mysql && typeof value === 'string' && /^\d{4}-\d\d-\d\d \d/.test(value)) value = `${value.replace(' ', 'T')}Z`;
      row[column] = value;
    }
    return row;
  });
}

describe('list sorting', () => {
  let t: TestApp;
  let agent: Agent;
  beforeAll(async () => {
    t = await createTestApp();
    agent = (await t.signedInAgent()).agent;
    const mysql = dialectOfDb(t.database.db) === 'mysql';
    await withTransaction({ db: t.database.db }, async (trx) => {
      for (const kind of RECORD_TYPES) await insertRecordRows(trx, kind, rowsOf(kind, ROWS, mysql));
    });
  });
  afterAll(async () => t.close());

  const list = async (kind: RecordType, search: string): Promise<ListItem[]> => {
    const res = await agent.get(`${RECORD_TYPE_INFO[kind].apiPath}?${search}`);
    expect(res.status, `${kind} ${search}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body.items as ListItem[];
  };

  for (const kind of RECORD_TYPES) {
    it(`sorts ${RECORD_TYPE_INFO[kind].pluralNoun} by every sortable column, both ways, ties broken by id`, async () => {
      const all = await list(kind, 'limit=100');
      expect(all).toHaveLength(ROWS);
      for (const sort of sortKeysOf(kind).filter((key) => key !== 'upcoming')) {
        for (const dir of ['asc', 'desc'] as const) {
          const expected = expectedOrder(sort, dir, all);
          const ids = (await list(kind, `sort=${sort}&dir=${dir}&limit=100`)).map((item) => item.id);
          expect(ids, `${kind} ${sort} ${dir}`).toEqual(expected);
          // Paging never repeats or skips a row among equal values.
          const paged: number[] = [];
          for (let offset = 0; offset < ROWS; offset += 2) {
            paged.push(...(await list(kind, `sort=${sort}&dir=${dir}&limit=2&offset=${offset}`)).map((item) => item.id));
          }
          expect(paged, `${kind} ${sort} ${dir} paged`).toEqual(expected);
        }
      }
      // No direction named: the sort's own.
      const defaultSort = sortKeysOf(kind).find((key) => key !== 'newest' && key !== 'upcoming')!;
      const defaultDir = (SORTS[kind] as Record<string, 'asc' | 'desc'>)[defaultSort]!;
      expect((await list(kind, `sort=${defaultSort}&limit=100`)).map((i) => i.id)).toEqual(expectedOrder(defaultSort, defaultDir, all));
    });
  }

  it('sorts the matches of a search the same way', async () => {
    const all = await list('event', 'limit=100&q=beta');
    expect(all.length).toBeGreaterThan(1);
    for (const dir of ['asc', 'desc'] as const) {
      const ids = (await list('event', `q=beta&sort=eventStartDate&dir=${dir}&limit=100`)).map((item) => item.id);
      expect(ids).toEqual(expectedOrder('eventStartDate', dir, all));
    }
  });

  it('lists upcoming events first, soonest first, then past ones latest first, then undated ones', async () => {
    // The test clock reads 2026-11-21.
    const all = await list('event', 'limit=100');
    const upcoming = all.filter((e) => typeof e.eventStartDate === 'string' && e.eventStartDate >= '2026-11-21');
    const past = all.filter((e) => typeof e.eventStartDate === 'string' && e.eventStartDate < '2026-11-21');
    const undated = all.filter((e) => e.eventStartDate === null);
    expect(upcoming.length && past.length && undated.length).toBeGreaterThan(0);
    const expected = [
      ...expectedOrder('eventStartDate', 'asc', upcoming),
      ...expectedOrder('eventStartDate', 'desc', past),
      ...expectedOrder('eventStartDate', 'desc', undated),
    ];
    expect((await list('event', 'sort=upcoming&limit=100')).map((e) => e.id)).toEqual(expected);
    const paged: number[] = [];
    for (let offset = 0; offset < ROWS; offset += 3) {
      paged.push(...(await list('event', `sort=upcoming&limit=3&offset=${offset}`)).map((e) => e.id));
    }
    expect(paged).toEqual(expected);
    expect((await agent.get('/api/events?sort=upcoming&limit=2')).body.total).toBe(ROWS);
    expect((await list('event', 'sort=upcoming&q=beta&limit=100')).map((e) => e.id)).toEqual(
      expected.filter((id) => all.find((e) => e.id === id)!.eventName === 'Beta'),
    );
  });

  interface Answer {
    items: ListItem[];
    total: number;
    next: string | null;
    prev: string | null;
  }
  const page = async (kind: RecordType, search: string): Promise<Answer> => {
    const res = await agent.get(`${RECORD_TYPE_INFO[kind].apiPath}?${search}`);
    expect(res.status, `${kind} ${search}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body as Answer;
  };

  /**
   * Walks a list with its cursors, two rows a page: Next from the first page to the end, then Previous from the
   * last page back to the start. Both must visit every row once, in the offset order, and each page must be the
   * offset page of the same number.
   */
  async function expectCursorWalks(kind: RecordType, params: string) {
    const ids = (await list(kind, `${params}&limit=100`)).map((item) => item.id);
    const forward: number[] = [];
    let answer = await page(kind, `${params}&limit=2`);
    expect(answer.prev, `${kind} ${params}: no Previous on the first page`).toBeNull();
    for (let n = 0; ; n++) {
      const pageIds = answer.items.map((item) => item.id);
      expect(pageIds, `${kind} ${params} page ${n + 1}`).toEqual(ids.slice(n * 2, n * 2 + 2));
      forward.push(...pageIds);
      if (answer.next === null) break;
      answer = await page(kind, `${params}&limit=2&after=${answer.next}`);
      expect(answer.prev, `${kind} ${params}: Previous after Next`).not.toBeNull();
    }
    expect(forward, `${kind} ${params} forward`).toEqual(ids);

    const lastOffset = Math.max(0, Math.ceil(ids.length / 2) - 1) * 2;
    answer = await page(kind, `${params}&limit=2&offset=${lastOffset}`);
    expect(answer.next, `${kind} ${params}: no Next on the last page`).toBeNull();
    const backward = answer.items.map((item) => item.id);
    while (answer.prev !== null) {
      answer = await page(kind, `${params}&limit=2&before=${answer.prev}`);
      expect(answer.next, `${kind} ${params}: Next after Previous`).not.toBeNull();
      backward.unshift(...answer.items.map((item) => item.id));
    }
    expect(backward, `${kind} ${params} backward`).toEqual(ids);
  }

  for (const kind of RECORD_TYPES) {
    it(`walks ${RECORD_TYPE_INFO[kind].pluralNoun} with cursors in every sort, both ways, as the offset pages do`, async () => {
      for (const sort of sortKeysOf(kind)) {
        for (const dir of ['asc', 'desc'] as const) {
          if (sort === 'upcoming' && dir === 'desc') continue;
          await expectCursorWalks(kind, `sort=${sort}&dir=${dir}`);
        }
      }
    });
  }

  it('walks a search and a filter with cursors too', async () => {
    await expectCursorWalks('event', 'q=beta&sort=eventStartDate&dir=desc');
    await expectCursorWalks('event', 'q=beta&sort=newest&dir=asc');
    await expectCursorWalks('event', 'q=beta');
    await expectCursorWalks('event', 'q=beta&sort=upcoming');
    await expectCursorWalks('event', 'filter=regular&sort=locationState&dir=desc');
    await expectCursorWalks('event', 'filter=regular&q=al&sort=totalAdvertisingSpend');
  });

  it('knows which sortable columns are never NULL, as the schema declares them', async () => {
    const db = t.database.db;
    for (const kind of RECORD_TYPES) {
      const table = RECORD_TYPE_INFO[kind].table;
      const info = await db(table).columnInfo();
      const sortable = sortKeysOf(kind).flatMap((sort) =>
        sort === 'newest' || sort === 'upcoming' ? [] : [...(definitionOf(kind).sortColumns?.[sort] ?? [sort])],
      );
      const required = sortable.filter((column) => info[column]!.nullable === false);
      expect(new Set(definitionOf(kind).notNullSortColumns), kind).toEqual(new Set(required));
    }
  });

  it('refuses a malformed, changed or foreign cursor with a 400 that says so', async () => {
    const { next } = await page('event', 'sort=eventName&dir=asc&limit=2');
    expect(next).not.toBeNull();
    const { refused } = await expectBadCursorsRefused(agent, '/api/events', { next: next!, sort: 'eventName', otherSort: 'locationState' });
    await refused(`after=${next}&after=${next}`, "after must be a cursor from a list's answer");
  });

  it('answers 400 naming the sortable columns for an unknown one, and for an unknown direction', async () => {
    const res = await agent.get('/api/brands?sort=notes');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`sort must be one of: ${sortKeysOf('brand').join(', ')}`);
    expect(res.body.message).toContain('brandName');
    const dir = await agent.get('/api/brands?sort=brandName&dir=up');
    expect(dir.status).toBe(400);
    expect(dir.body.message).toBe('dir must be one of: asc, desc');
    expect((await agent.get('/api/brands?sort=upcoming')).status).toBe(400);
  });

  it('keeps the sort of a page URL, falling back to the default for an unknown one', () => {
    const read = readListQuery('event', new URLSearchParams('sort=eventName&dir=desc&page=2'), 'page');
    expect(read.ok && read.view).toMatchObject({ sort: 'eventName', dir: 'desc', page: 2 });
    const unknown = readListQuery('event', new URLSearchParams('sort=bogus&dir=sideways'), 'page');
    expect(unknown.ok && unknown.view).toMatchObject({ sort: 'newest', dir: 'desc' });
  });
});

describe('list sorts are index-backed', () => {
  let t: TestApp;
  /** Enough rows that a cost-based planner prefers walking an index to sorting. */
  const VOLUME = 5000;
  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const mysql = dialectOfDb(db) === 'mysql';
    await withTransaction({ db }, async (trx) => {
      for (const kind of RECORD_TYPES) {
        const rows = rowsOf(kind, VOLUME, mysql).map((row, i) => {
          // Spread the values so each index has many distinct keys, as real data does.
          for (const [column, value] of Object.entries(row)) {
            if (typeof value === 'string' && /^[A-Za-z]/.test(value)) row[column] = `${value}${String(i).padStart(5, '0')}`;
            if (column === 'membershipCount' && value !== null) row[column] = i;
          }
          return row;
        });
        await insertRecordRows(trx, kind, rows);
      }
    });
    if (mysql) for (const kind of RECORD_TYPES) await db.raw('ANALYZE TABLE ??', [RECORD_TYPE_INFO[kind].table]);
    else await db.raw('ANALYZE');
  }, 120_000);
  afterAll(async () => t.close());

  it('reads the first page of upcoming events without counting any of its segments', async () => {
    const statementsOf = async (offset: string) => {
      const read = readListQuery('event', new URLSearchParams({ sort: 'upcoming', offset }), 'api');
      if (!read.ok) throw new Error(read.message);
      return (await statementsSentBy(t.database.db, () => listRecords(t.ctx, 'event', read.query).then(() => undefined))).map((s) => s.sql);
    };
    const countsEvents = (sql: string) => /count\(/i.test(sql) && /from [`"]?events[`"]? /i.test(sql);
    // A count reads every upcoming event's index entry, so page 1 would cost more the more events there are.
    expect((await statementsOf('0')).filter(countsEvents)).toEqual([]);
    // A page further on still counts the segments it skips to find where it starts.
    expect((await statementsOf('4000')).filter(countsEvents).length).toBeGreaterThan(0);
  });

  it('answers every sort of every list, both ways, shallow and deep, by offset and by cursor, without sorting the table', async () => {
    const db = t.database.db;
    for (const kind of RECORD_TYPES) {
      for (const sort of sortKeysOf(kind)) {
        for (const dir of ['asc', 'desc']) {
          // The offset pages, then the pages after and before the deep one by its cursors (the seek statements). A
          // column with NULLs adds the page that ends at the last NULL (ascending) or the last value (descending),
          // so the page after it reads on across that boundary (IS NOT NULL, then IS NULL ranges).
          const searches: Array<Record<string, string>> = [{ offset: '0' }, { offset: '600' }];
          // "Upcoming" reads its undated events last, whatever the direction.
          const column = sort === 'upcoming' ? 'eventStartDate' : (definitionOf(kind).sortColumns?.[sort]?.[0] ?? sort);
          if (sort !== 'newest') {
            const table = RECORD_TYPE_INFO[kind].table;
            const nulls = Number(((await db(table).whereNull(column).count({ n: '*' }).first()) as { n: number | string }).n);
            const nullsFirst = dir === 'asc' && sort !== 'upcoming';
            if (nulls > 24) searches.push({ offset: String(nullsFirst ? nulls - 24 : VOLUME - nulls - 24), boundary: '1' });
          }
          for (let i = 0; i < searches.length; i++) {
            const { boundary, ...search } = searches[i]!;
            const read = readListQuery(kind, new URLSearchParams({ sort, dir, ...search }), 'api');
            if (!read.ok) throw new Error(read.message);
            let answer: Awaited<ReturnType<typeof listRecords>> | undefined;
            const statements = await statementsSentBy(db, async () => {
              answer = await listRecords(t.ctx, kind, read.query);
            });
            const label = `${kind} sort=${sort} dir=${dir} ${new URLSearchParams(search).toString().slice(0, 40)}`;
            expect(answer!.items.length, label).toBeGreaterThan(0);
            if (search.offset === '600') searches.push({ after: answer!.next! }, { before: answer!.prev! });
            if (boundary) searches.push({ after: answer!.next! });
            await expectOrderedByIndex(db, statements, label);
          }
        }
      }
    }
  }, 240_000);
});
