import { beforeAll, describe, expect, it } from 'vitest';
import { apiAs, browserSuite, waitForHydration, type WatchedPage } from './harness.js';
import { readFileSync } from 'node:fs';
import { cardTitles, confirmDelete, expectHeading, expectToast, openRecordsPage, search } from './records-steps.js';

describe('list views: table, column picker and sorting (real Chromium)', () => {
  const suite = browserSuite({ signedIn: { path: '/brands', open: openRecordsPage, hydrated: true } });

  beforeAll(async () => {
    for (const [brandName, industryCategory] of [
      ['Bravo Bikes', 'Cycling'],
      ['Alpha Apparel', 'Apparel'],
      ['Charlie Chews', 'Nutrition'],
    ]) {
      await apiAs(suite.watched.page, suite.server.baseUrl, 'POST', '/api/brands', { brandName, industryCategory });
    }
  });

  const rowNames = (page: WatchedPage['page']) =>
    page
      .locator('table.records-table tbody tr td:nth-child(2)')
      .evaluateAll((cells) => cells.map((cell) => cell.textContent?.trim() ?? ''));

  it('switches to the table, remembers it, picks columns and sorts by a header', async () => {
    const { page } = suite.watched;
    const base = suite.server.baseUrl;
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
    await page.waitForFunction(() => document.querySelector('table.records-table tbody td:nth-child(2)')?.textContent?.includes('Alpha'));
    expect(await rowNames(page)).toEqual(['Alpha Apparel', 'Bravo Bikes', 'Charlie Chews']);
    expect(await nameHeader.getAttribute('aria-sort')).toBe('ascending');
    await nameHeader.getByRole('link').click();
    await page.waitForURL(/sort=brandName&dir=desc/);
    await page.waitForFunction(() => document.querySelector('table.records-table tbody td:nth-child(2)')?.textContent?.includes('Charlie'));
    expect(await rowNames(page)).toEqual(['Charlie Chews', 'Bravo Bikes', 'Alpha Apparel']);
    expect(await nameHeader.getAttribute('aria-sort')).toBe('descending');

    // The cards honour the same sort, through the sort menu.
    await page.getByRole('button', { name: 'Cards' }).click();
    await page.locator('[data-testid="brand-card"]').first().waitFor();
    expect(await cardTitles(page)).toEqual(['Charlie Chews', 'Bravo Bikes', 'Alpha Apparel']);
    expect(await page.getByLabel('Sort by').evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent)).toBe(
      'Name Z–A',
    );
    await page.getByLabel('Sort by').selectOption({ label: 'Name A–Z' });
    await page.waitForURL(/sort=brandName&dir=asc/);
    await page.waitForFunction(() => document.querySelector('[data-testid="brand-card"] h2')?.textContent?.includes('Alpha'));
    expect(await cardTitles(page)).toEqual(['Alpha Apparel', 'Bravo Bikes', 'Charlie Chews']);
  });

  it('switches events between Cards, Table and the season calendar, and remembers the calendar', async () => {
    const { page } = suite.watched;
    const base = suite.server.baseUrl;
    await apiAs(page, base, 'POST', '/api/events', { eventName: 'May Harbour Run', eventStartDate: '2027-05-14' });
    await page.goto(`${base}/events`);
    await waitForHydration(page);
    const viewButton = (name: string) => page.getByRole('form', { name: 'View' }).getByRole('button', { name });
    expect(await viewButton('Cards').getAttribute('aria-pressed')).toBe('true');

    await viewButton('Calendar').click();
    await page.waitForURL(/\/events\?view=calendar$/);
    await page.locator('.calendar-today').first().waitFor();
    expect(await viewButton('Calendar').getAttribute('aria-pressed')).toBe('true');
    // Month navigation stays in the URL and keeps the switch.
    await page.getByRole('link', { name: /Next month/ }).click();
    await page.waitForURL(/view=calendar&month=\d{4}-\d{2}/);
    await page.goto(`${base}/events?view=calendar&month=2027-05`);
    await waitForHydration(page);
    await page
      .getByRole('link', { name: /May Harbour Run/ })
      .first()
      .waitFor();
    // Remembered on the server: plain /events paints the calendar first.
    expect(await (await page.context().request.get(`${base}/events`)).text()).toContain('calendar-today');

    await viewButton('Table').click();
    await page.waitForURL(/\/events$/);
    await page.getByRole('table', { name: 'Events' }).waitFor();
    expect(await viewButton('Table').getAttribute('aria-pressed')).toBe('true');
    await viewButton('Cards').click();
    await page.locator('[data-testid="event-card"]').first().waitFor();
    expect(await viewButton('Cards').getAttribute('aria-pressed')).toBe('true');
    suite.watched.assertClean();
  });

  it('exports the filtered list as the CSV download', async () => {
    const { page } = suite.watched;
    await page.goto(`${suite.server.baseUrl}/brands`);
    await waitForHydration(page);
    await search(page, 'bravo');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="brand-card"]').length === 1);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^brands-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^Bravo Bikes,/);
  });

  it('deletes a shift-clicked range of brands after one confirmation', async () => {
    const { page } = suite.watched;
    for (const brandName of ['Delta Dash', 'Echo Energy'])
      await apiAs(suite.watched.page, suite.server.baseUrl, 'POST', '/api/brands', { brandName });
    await page.goto(`${suite.server.baseUrl}/brands?sort=brandName&dir=asc`);
    await waitForHydration(page);
    expect(await cardTitles(page)).toEqual(['Alpha Apparel', 'Bravo Bikes', 'Charlie Chews', 'Delta Dash', 'Echo Energy']);
    await page.getByRole('checkbox', { name: 'Select Bravo Bikes' }).click();
    await page.getByRole('checkbox', { name: 'Select Delta Dash' }).click({ modifiers: ['Shift'] });
    await page.getByText('3 selected').waitFor();
    expect(await page.getByRole('checkbox', { name: 'Select Charlie Chews' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Select Echo Energy' }).isChecked()).toBe(false);
    await confirmDelete(
      page,
      page.getByRole('button', { name: 'Delete selected' }),
      'Are you sure you want to delete 3 brands? The message that follows offers Undo, and an admin can restore from Recently deleted for 30 days.',
    );
    await expectToast(page, '3 brands deleted');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="brand-card"]').length === 2);
    expect(await cardTitles(page)).toEqual(['Alpha Apparel', 'Echo Energy']);
    expect(await page.getByRole('region', { name: 'Selected records' }).count()).toBe(0);
  });
});
