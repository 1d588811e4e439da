import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPacer } from '../helpers/cli-io.js';
import { browserSuite, waitForHydration } from './harness.js';

const ROWS = 100_000;

/**
 * A brands file of ROWS rows: 20,000 brands with five contacts each, one row in a thousand without an email (so
 * the 20 brands whose rows all lack one are left out).
 */
function writeBrandsCsv(file: string) {
  const lines = ['Brand,First Name,Last Name,Email'];
  for (let i = 0; i < ROWS; i++)
    lines.push(`Brand ${i % 20_000},Pat,Row${i},${i % 1000 === 999 ? '' : `pat${i}@brand${i % 20_000}.example.org`}`);
  writeFileSync(file, `${lines.join('\n')}\n`);
}

describe('a 100,000-row brands import in the browser (real Chromium)', () => {
  const suite = browserSuite({ signedIn: { path: '/brands/bulk-import' } });
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-e2e-csv-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('shows live progress and finishes with the counts the CLI reports; a reload shows the result again', async () => {
    const file = path.join(dir, 'brands.csv');
    writeBrandsCsv(file);
    // What `pacer import` would do with the same file on the same database.
    const { code, out } = await runPacer({ DATABASE_URL: suite.server.database.url }, ['import', 'brands', '--dry-run', '--json', file]);
    expect(code).toBe(0);
    const cli = JSON.parse(out) as { brandsCreated: number; contactsCreated: number; skipped: number; errors: string[] };
    expect(cli).toMatchObject({ brandsCreated: 19_980, contactsCreated: ROWS - ROWS / 1000, skipped: 0 });

    const { page } = suite.watched;
    await waitForHydration(page);
    await page.getByTestId('import-file').setInputFiles(file);
    await page.getByTestId('import-preview').waitFor({ timeout: 60_000 });
    // Every text the progress line shows is collected as it changes, however quickly the import runs.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="job-progress-counts"]')?.textContent;
        if (text && seen[seen.length - 1] !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('button', { name: 'Import Data' }).click({ timeout: 60_000 });
    const results = page.getByTestId('import-results');
    await results.waitFor({ timeout: 170_000 });
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    // The bar counted rows against the file's total (every state it showed once rows were read), ending at all of them.
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((text) => !text.startsWith('Starting…')).every((text) => / \/ 99,900 rows/.test(text))).toBe(true);
    expect(seen[seen.length - 1]).toMatch(/^99,900 \/ 99,900 rows/);

    const tile = async (key: string) => Number(((await page.getByTestId(`import-result-${key}`).textContent()) ?? '').replace(/\D/g, ''));
    expect(await tile('brandsCreated')).toBe(cli.brandsCreated);
    expect(await tile('contactsCreated')).toBe(cli.contactsCreated);
    expect(await tile('skipped')).toBe(cli.skipped);
    expect(await tile('errors')).toBe(cli.errors.length);
    expect(Number((await suite.server.ctx.db('brands').count({ n: '*' }).first())!.n)).toBe(19_980);
    // The finished job is remembered: a reload shows its result again.
    await page.reload();
    await waitForHydration(page);
    await results.waitFor();
    expect(await tile('brandsCreated')).toBe(cli.brandsCreated);
  }, 300_000);
});
