import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiAs,
  createStaffUser,
  launchBrowser,
  signIn,
  startServer,
  waitForHydration,
  type E2EServer,
  type WatchedPage,
} from './harness.js';
import { cardTitles, expectHeading, openRecordsPage } from './records-steps.js';

describe('list views: table, column picker and sorting (real Chromium)', () => {
  let server: E2EServer;
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const credentials = await createStaffUser(server);
    watched = await openRecordsPage(browser);
    await signIn(watched.page, server.baseUrl, credentials, '/brands');
    await waitForHydration(watched.page);
    for (const [brandName, industryCategory] of [
      ['Bravo Bikes', 'Cycling'],
      ['Alpha Apparel', 'Apparel'],
      ['Charlie Chews', 'Nutrition'],
    ]) {
      await apiAs(watched.page, server.baseUrl, 'POST', '/api/brands', { brandName, industryCategory });
    }
  });
  afterAll(async () => {
    await watched?.close();
    await browser?.close();
    await server?.close();
  });

  const rowNames = (page: WatchedPage['page']) =>
    page.locator('table.records-table tbody tr td:first-child').evaluateAll((cells) => cells.map((cell) => cell.textContent?.trim() ?? ''));

  it('switches to the table, remembers it, picks columns and sorts by a header', async () => {
    const { page } = watched;
    const base = server.baseUrl;
    await page.goto(`${base}/brands`);
    await waitForHydration(page);
    await expectHeading(page, 'Brands');
    // The card grid is the default view.
    expect(await cardTitles(page)).toEqual(['Charlie Chews', 'Alpha Apparel', 'Bravo Bikes']);
    expect(await page.getByRole('button', { name: 'Cards' }).getAttribute('aria-pressed')).toBe('true');

    await page.getByRole('button', { name: 'Table' }).click();
    const table = page.getByRole('table', { name: 'Brands' });
    await table.waitFor();
    expect(await page.getByRole('button', { name: 'Table' }).getAttribute('aria-pressed')).toBe('true');
    expect(await rowNames(page)).toEqual(['Charlie Chews', 'Alpha Apparel', 'Bravo Bikes']);
    expect(await table.getByRole('columnheader').allTextContents()).toContain('Industry');

    // Remembered on the server: a fresh load paints the table at once (no script needed to choose it).
    const html = await (await page.context().request.get(`${base}/brands`)).text();
    expect(html).toContain('records-table');

    // Hide a column.
    await page.getByText('Columns', { exact: true }).click();
    await page.getByRole('checkbox', { name: 'Industry' }).uncheck();
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForFunction(
      () => ![...document.querySelectorAll('table.records-table th')].some((th) => th.textContent?.includes('Industry')),
    );
    await page.reload();
    await table.waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).not.toContain('Industry');

    // Sort by the Name header: ascending, then descending; the URL and aria-sort say so.
    const nameHeader = table.getByRole('columnheader', { name: /Name/ });
    expect(await nameHeader.getAttribute('aria-sort')).toBe('none');
    await nameHeader.getByRole('link').click();
    await page.waitForURL(/sort=brandName&dir=asc/);
    await page.waitForFunction(() => document.querySelector('table.records-table tbody td')?.textContent?.includes('Alpha'));
    expect(await rowNames(page)).toEqual(['Alpha Apparel', 'Bravo Bikes', 'Charlie Chews']);
    expect(await nameHeader.getAttribute('aria-sort')).toBe('ascending');
    await nameHeader.getByRole('link').click();
    await page.waitForURL(/sort=brandName&dir=desc/);
    await page.waitForFunction(() => document.querySelector('table.records-table tbody td')?.textContent?.includes('Charlie'));
    expect(await rowNames(page)).toEqual(['Charlie Chews', 'Bravo Bikes', 'Alpha Apparel']);
    expect(await nameHeader.getAttribute('aria-sort')).toBe('descending');

    // The cards honour the same sort, through the sort menu.
    await page.getByRole('button', { name: 'Cards' }).click();
    await page.locator('[data-testid="brand-card"]').first().waitFor();
    expect(await cardTitles(page)).toEqual(['Charlie Chews', 'Bravo Bikes', 'Alpha Apparel']);
    await page.getByLabel('Direction').selectOption('asc');
    await page.waitForURL(/dir=asc/);
    await page.waitForFunction(() => document.querySelector('[data-testid="brand-card"] h2')?.textContent?.includes('Alpha'));
    expect(await cardTitles(page)).toEqual(['Alpha Apparel', 'Bravo Bikes', 'Charlie Chews']);
  });
});
