import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '@db/transaction.js';
import { insertRecordRows } from '@services/records/writes.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { readListPage } from '../helpers/list-page.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

/** Decodes the few entities an href can hold in server-rendered HTML. */
/**
 * The list pages' Next and Previous links carry a cursor, so a reader without script (plain links, server-rendered)
 * follows them at the cost of the first page, and sees the rows the numbered page would show.
 */
describe('list page Next and Previous links', () => {
  let t: TestApp;
  let agent: Agent;
  const BRANDS = 60;
  beforeAll(async () => {
    t = await createTestApp();
    agent = (await t.signedInAgent()).agent;
    // Few distinct names and states, and some without a state: ties and NULLs the id must order.
    const stamp = t.database.dialect === 'mysql' ? '2026-11-01 10:00:00.000' : '2026-11-01T10:00:00.000Z';
    const rows = Array.from({ length: BRANDS }, (_, i) => ({
      brandName: ['Beta', 'Alpha', 'Gamma'][i % 3],
      locationState: i % 4 === 0 ? null : ['VIC', 'NSW'][i % 2],
      createdAt: stamp,
      updatedAt: stamp,
    }));
    await withTransaction({ db: t.database.db }, (trx) => insertRecordRows(trx, 'brand', rows));
  });
  afterAll(async () => t.close());

  for (const sort of ['', 'sort=brandName&dir=asc', 'sort=locationState&dir=desc']) {
    it(`follows Next to the last page and Previous back, each page the numbered page's rows (${sort || 'newest'})`, async () => {
      const query = sort ? `?${sort}` : '';
      const numbered = async (page: number) =>
        (await readListPage(agent, `/brands${query}${query ? '&' : '?'}page=${page}`, '/brands')).ids;
      let current = await readListPage(agent, `/brands${query}`, '/brands');
      expect(current.prev).toBeNull();
      const pages = [current];
      while (current.next) {
        expect(current.next).toMatch(/[?&]after=[\w.-]+/);
        current = await readListPage(agent, current.next, '/brands');
        pages.push(current);
      }
      expect(pages.map((p) => p.page)).toEqual([1, 2, 3]);
      for (const [i, page] of pages.entries()) expect(page.ids, `page ${i + 1}`).toEqual(await numbered(i + 1));
      expect(pages.flatMap((p) => p.ids)).toHaveLength(BRANDS);

      // Previous from the last page: by cursor to page 2, then by number to page 1.
      expect(current.prev).toMatch(/[?&]before=[\w.-]+/);
      const second = await readListPage(agent, current.prev!, '/brands');
      expect(second.page).toBe(2);
      expect(second.ids).toEqual(await numbered(2));
      expect(second.prev).not.toMatch(/before=/);
      const first = await readListPage(agent, second.prev!, '/brands');
      expect(first.page).toBe(1);
      expect(first.ids).toEqual(await numbered(1));
    });
  }

  it('shows why a tampered cursor link cannot be followed, not the error page', async () => {
    const first = await readListPage(agent, '/brands', '/brands');
    const broken = first.next!.replace(/after=[\w-]/, 'after=Z');
    const res = await agent.get(broken);
    // The cursor is refused by the list like any search the API refuses: the page says so and keeps its search box.
    expect(res.status).toBe(400);
    expect(res.text).toContain('is not a cursor this list gave');
  });
});
