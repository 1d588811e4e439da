import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOfDb } from '@db/knex.js';
import { withTransaction } from '@db/transaction.js';
import { listDirectory } from '@services/contacts/directory.js';
import { insertContactRows, type ContactInsert } from '@services/contacts/writes.js';
import { encodeCursor } from '@services/records/cursor.js';
import { CONTACT_SORTS } from '@shared/list-options.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { statementsSentBy } from '../helpers/db.js';
import { expectBadCursorsRefused, readListPage } from '../helpers/list-page.js';
import { expectedOrder, expectOrderedByIndex, type ListItem } from '../helpers/list-order.js';

/**
 * The contacts directory pages by cursor like the record lists (docs/decisions/0067-keyset-pagination.md): the API's
 * after/before and next/prev, the page's Next and Previous links, in every sort, on index seeks.
 */

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];
interface Answer {
  items: ListItem[];
  total: number;
  next: string | null;
  prev: string | null;
}

const SORTS = Object.keys(CONTACT_SORTS) as Array<keyof typeof CONTACT_SORTS>;
const DIRS = ['asc', 'desc'] as const;

/** Contact rows with ties (names, titles, the timestamp) and NULLs (email, job title), alternating owners, tags and primary. */
function contactRows(count: number, owners: { brand: number; event: number }, mysql: boolean, spread = false): ContactInsert[] {
  const stamps = ['2026-11-02 10:00:00.000', '2026-11-01 10:00:00.000', '2026-11-02 10:00:00.000'];
  const stamp = (i: number) => {
    const value = stamps[i % stamps.length]!;
    // SQLite stores timestamps as ISO text, MariaDB as DATETIME(3).
    return mysql ? value : `${value.replace(' ', 'T')}Z`;
  };
  // Spread values give each index many distinct keys, as real data does (the EXPLAIN checks).
  const text = (value: string | null, i: number) => (value === null || !spread ? value : `${value}${String(i).padStart(5, '0')}`);
  return Array.from({ length: count }, (_, i) => ({
    firstName: text(['Zoe', 'Amy'][i % 2]!, i),
    lastName: text(['Nguyen', 'Adams', 'Nguyen'][i % 3]!, i),
    jobTitle: text(['Coach', null, 'Agent', 'Coach'][i % 4]!, i),
    email: text(['b@example.org', null, 'a@example.org', 'b@example.org'][i % 4]!, i),
    phone: null,
    notes: null,
    mailchimpTags: i % 3 === 0 ? '["vip"]' : '[]',
    entityType: i % 2 === 0 ? 'brand' : 'event',
    entityId: i % 2 === 0 ? owners.brand : owners.event,
    isPrimary: i % 5 === 0 ? 1 : 0,
    createdAt: stamp(i),
    updatedAt: stamp(i),
    createdBy: null,
  }));
}

async function addContacts(t: TestApp, agent: Agent, count: number, spread = false) {
  const brand = (await agent.post('/api/brands').send({ brandName: 'Stride Shoes' })).body.id as number;
  const event = (await agent.post('/api/events').send({ eventName: 'Harbour Half' })).body.id as number;
  const db = t.database.db;
  const rows = contactRows(count, { brand, event }, dialectOfDb(db) === 'mysql', spread);
  await withTransaction({ db }, (trx) => insertContactRows(trx, rows));
}

describe('contacts directory cursors', () => {
  let t: TestApp;
  let agent: Agent;
  const ROWS = 13;
  beforeAll(async () => {
    t = await createTestApp();
    agent = (await t.signedInAgent()).agent;
    await addContacts(t, agent, ROWS);
  });
  afterAll(async () => t.close());

  const page = async (search: string): Promise<Answer> => {
    const res = await agent.get(`/api/contacts?${search}`);
    expect(res.status, `${search}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body as Answer;
  };

  /**
   * Walks the directory with its cursors, two rows a page: Next from the first page to the end, then Previous from
   * the last page back to the start. Both must visit every contact once, in the offset order, each page the offset
   * page of the same number.
   */
  async function expectCursorWalks(params: string) {
    const ids = (await page(`${params}&limit=100`)).items.map((item) => item.id);
    expect(ids.length, params).toBeGreaterThan(2);
    const forward: number[] = [];
    let answer = await page(`${params}&limit=2`);
    expect(answer.prev, `${params}: no Previous on the first page`).toBeNull();
    for (let n = 0; ; n++) {
      const pageIds = answer.items.map((item) => item.id);
      expect(pageIds, `${params} page ${n + 1}`).toEqual(ids.slice(n * 2, n * 2 + 2));
      expect(answer.total, params).toBe(ids.length);
      forward.push(...pageIds);
      if (answer.next === null) break;
      answer = await page(`${params}&limit=2&after=${answer.next}`);
      expect(answer.prev, `${params}: Previous after Next`).not.toBeNull();
    }
    expect(forward, `${params} forward`).toEqual(ids);

    const lastOffset = Math.max(0, Math.ceil(ids.length / 2) - 1) * 2;
    answer = await page(`${params}&limit=2&offset=${lastOffset}`);
    expect(answer.next, `${params}: no Next on the last page`).toBeNull();
    const backward = answer.items.map((item) => item.id);
    while (answer.prev !== null) {
      answer = await page(`${params}&limit=2&before=${answer.prev}`);
      expect(answer.next, `${params}: Next after Previous`).not.toBeNull();
      backward.unshift(...answer.items.map((item) => item.id));
    }
    expect(backward, `${params} backward`).toEqual(ids);
  }

  it('walks every sort, both ways, with cursors as the offset pages do (ties and NULLs)', async () => {
    const all = (await page('limit=100')).items;
    expect(all).toHaveLength(ROWS);
    for (const sort of SORTS) {
      for (const dir of DIRS) {
        const ids = (await page(`sort=${sort}&dir=${dir}&limit=100`)).items.map((item) => item.id);
        expect(ids, `${sort} ${dir}`).toEqual(expectedOrder(sort, dir, all));
        await expectCursorWalks(`sort=${sort}&dir=${dir}`);
      }
    }
  });

  it('walks searches and filters with cursors too', async () => {
    for (const params of [
      'q=nguyen',
      'q=nguyen&sort=newest&dir=asc',
      'q=nguyen&sort=email&dir=desc',
      'q=example&sort=jobTitle&dir=asc',
      'ownerType=brand&sort=jobTitle&dir=desc',
      'primary=false&sort=name&dir=desc',
      'tag=vip&sort=updatedAt&dir=asc',
      'ownerType=event&q=amy&sort=email&dir=asc',
      'ownerType=event&q=amy',
    ]) {
      await expectCursorWalks(params);
    }
  });

  it('refuses a malformed, changed or foreign cursor with a 400 that says so', async () => {
    const { next } = await page('sort=name&dir=asc&limit=2');
    expect(next).not.toBeNull();
    const { refused, changed, notOurs } = await expectBadCursorsRefused(agent, '/api/contacts', {
      next: next!,
      sort: 'name',
      otherSort: 'email',
    });
    // A search that matches nothing still checks its cursor.
    await refused(`q=zzzzzz&sort=name&dir=asc&after=${changed}`, notOurs('after'));
  });

  it('seeks from a well-formed cursor it never gave (values of any type) without a server error', async () => {
    const forged: Array<[string, 'asc' | 'desc', Array<string | number | null>]> = [
      ['updatedAt', 'desc', ['2026-11-21T09:00:00.000Z']],
      ['updatedAt', 'asc', ['not a time']],
      ['name', 'asc', [1e308, null]],
      ['email', 'desc', [null]],
      ['jobTitle', 'asc', ['x'.repeat(300)]],
    ];
    for (const [sort, dir, values] of forged) {
      const cursor = encodeCursor({ sort, dir }, { segment: 0, values, id: 3 });
      for (const param of ['after', 'before']) {
        const res = await agent.get(`/api/contacts?sort=${sort}&dir=${dir}&${param}=${cursor}`);
        expect(res.status, `${sort} ${dir} ${param} ${JSON.stringify(values)}: ${JSON.stringify(res.body)}`).toBe(200);
      }
    }
  });

  it('exports every contact in the cursor order of each sort', async () => {
    for (const sort of SORTS) {
      for (const dir of DIRS) {
        const ids = (await page(`sort=${sort}&dir=${dir}&limit=100`)).items;
        const res = await agent.get(`/api/export/contacts?sort=${sort}&dir=${dir}`);
        expect(res.status).toBe(200);
        const lines = res.text.trim().split('\r\n').slice(1);
        expect(lines, `${sort} ${dir}`).toHaveLength(ROWS);
        expect(
          lines.map((line) => line.split(',')[0]),
          `${sort} ${dir}`,
        ).toEqual(ids.map((item) => String(item.firstName)));
      }
    }
  });
});

/** Decodes the few entities an href can hold in server-rendered HTML. */
describe('contacts directory page Next and Previous links', () => {
  let t: TestApp;
  let agent: Agent;
  const CONTACTS = 60;
  beforeAll(async () => {
    t = await createTestApp();
    agent = (await t.signedInAgent()).agent;
    await addContacts(t, agent, CONTACTS);
  });
  afterAll(async () => t.close());

  for (const sort of ['', 'sort=name&dir=asc', 'sort=email&dir=desc', 'ownerType=brand&sort=jobTitle&dir=asc']) {
    it(`follows Next to the last page and Previous back, each page the numbered page's rows (${sort || 'newest'})`, async () => {
      const query = sort ? `?${sort}` : '';
      const numbered = async (n: number) => (await readListPage(agent, `/contacts${query}${query ? '&' : '?'}page=${n}`, '/contacts')).ids;
      let current = await readListPage(agent, `/contacts${query}`, '/contacts');
      expect(current.prev).toBeNull();
      const pages = [current];
      while (current.next) {
        expect(current.next).toMatch(/[?&]after=[\w.-]+/);
        current = await readListPage(agent, current.next, '/contacts');
        pages.push(current);
      }
      const expected = sort.startsWith('ownerType') ? CONTACTS / 2 : CONTACTS;
      expect(pages.map((p) => p.page)).toEqual(pages.map((_, i) => i + 1));
      expect(pages.length).toBeGreaterThan(1);
      for (const [i, shown] of pages.entries()) expect(shown.ids, `page ${i + 1}`).toEqual(await numbered(i + 1));
      expect(new Set(pages.flatMap((p) => p.ids)).size).toBe(expected);

      // Previous from the last page walks back by cursor to page 2, then by number to page 1.
      for (let n = pages.length - 1; n >= 1; n--) {
        if (n > 1) expect(current.prev).toMatch(/[?&]before=[\w.-]+/);
        else expect(current.prev).not.toMatch(/before=/);
        current = await readListPage(agent, current.prev!, '/contacts');
        expect(current.page).toBe(n);
        expect(current.ids).toEqual(pages[n - 1]!.ids);
      }
      expect(current.prev).toBeNull();
    });
  }

  it('shows why a tampered cursor link cannot be followed, not the error page', async () => {
    const first = await readListPage(agent, '/contacts', '/contacts');
    const broken = first.next!.replace(/after=[\w-]/, 'after=Z');
    const res = await agent.get(broken);
    expect(res.status).toBe(400);
    expect(res.text).toContain('is not a cursor this list gave');
  });
});

describe('contacts directory cursor pages are index-backed', () => {
  let t: TestApp;
  const VOLUME = 5000;
  beforeAll(async () => {
    t = await createTestApp();
    const agent = (await t.signedInAgent()).agent;
    await addContacts(t, agent, VOLUME, true);
    const db = t.database.db;
    if (dialectOfDb(db) === 'mysql') await db.raw('ANALYZE TABLE contacts');
    else await db.raw('ANALYZE');
  }, 120_000);
  afterAll(async () => t.close());

  it('answers every sort, both ways, by offset and by cursor (across NULLs), without sorting the table', async () => {
    const db = t.database.db;
    for (const sort of SORTS) {
      for (const dir of DIRS) {
        const searches: Array<Record<string, string>> = [{ offset: '0' }, { offset: '600' }];
        if (sort === 'email' || sort === 'jobTitle') {
          // The page ending at the last NULL (ascending) or the last value (descending): the page after it reads
          // on across that boundary.
          const nulls = Number(((await db('contacts').whereNull(sort).count({ n: '*' }).first()) as { n: number | string }).n);
          searches.push({ offset: String(dir === 'asc' ? nulls - 24 : VOLUME - nulls - 24), boundary: '1' });
        }
        for (let i = 0; i < searches.length; i++) {
          const { boundary, ...search } = searches[i]!;
          let answer: Answer | undefined;
          const statements = await statementsSentBy(db, async () => {
            answer = (await listDirectory(t.ctx, { sort, dir, ...search })) as unknown as Answer;
          });
          const label = `sort=${sort} dir=${dir} ${new URLSearchParams(search).toString().slice(0, 40)}`;
          expect(answer!.items.length, label).toBeGreaterThan(0);
          if (search.offset === '600') searches.push({ after: answer!.next! }, { before: answer!.prev! });
          if (boundary) searches.push({ after: answer!.next! });
          await expectOrderedByIndex(db, statements, label);
        }
      }
    }
  }, 240_000);
});
