import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@services/users/service.js';
import { TEST_PASSWORD } from '../helpers/app.js';
import { apiAs, launchBrowser, signIn, startServer, waitForHydration, type E2EServer, type WatchedPage } from './harness.js';
import { openRecordsPage } from './records-steps.js';

const PHONE = { width: 390, height: 844 };
const admin = { email: 'boss@example.org', password: TEST_PASSWORD };

/** The layout the list shows, as its Cards | Table switch says. */
const pressedLayout = (page: Page) => page.locator('.layout-switch [aria-pressed="true"]').textContent();

describe('phone layouts at 390 x 844 (real Chromium)', () => {
  let server: E2EServer;
  let browser: Browser;
  let desktop: WatchedPage;
  let phone: WatchedPage;
  let brandId: number;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    await createUser(server.ctx, { ...admin, firstName: 'Bo', lastName: 'Boss', role: 'admin' });
    // An invited user with a long address, so the users table is wider than a phone.
    await createUser(server.ctx, {
      email: 'a.rather.long.address.for.a.phone@example.org',
      password: TEST_PASSWORD,
      firstName: 'Lena',
      lastName: 'Longname',
    });
    desktop = await openRecordsPage(browser);
    await signIn(desktop.page, server.baseUrl, admin, '/brands');
    for (const brandName of ['Bravo Bikes', 'Alpha Apparel', 'Charlie Chews']) {
      const brand = await apiAs<{ id: number }>(desktop.page, server.baseUrl, 'POST', '/api/brands', {
        brandName,
        industryCategory: 'Apparel',
      });
      brandId = brand.id;
    }
    phone = await openRecordsPage(browser, PHONE);
    await signIn(phone.page, server.baseUrl, admin, '/brands');
  });
  afterAll(async () => {
    await desktop?.close();
    await phone?.close();
    await browser?.close();
    await server?.close();
  });

  it('keeps a table chosen on the desktop off the phone, which remembers its own choice', async () => {
    await desktop.page.goto(`${server.baseUrl}/brands`);
    await waitForHydration(desktop.page);
    await desktop.page.getByRole('button', { name: 'Table' }).click();
    await desktop.page.getByRole('table', { name: 'Brands' }).waitFor();

    await phone.page.goto(`${server.baseUrl}/brands`);
    await waitForHydration(phone.page);
    expect(await pressedLayout(phone.page)).toBe('Cards');
    expect(await phone.page.locator('table.records-table').count()).toBe(0);

    // Chosen on the phone, the table stays there; the desktop keeps its own.
    await phone.page.getByText('Filters & sort').click();
    await phone.page.getByRole('button', { name: 'Table' }).click();
    await phone.page.getByRole('table', { name: 'Brands' }).waitFor();
    await phone.page.reload();
    await phone.page.getByRole('table', { name: 'Brands' }).waitFor();
    // Wider than the phone, it shows a shadow on the edge with more columns past it (the right, not the left).
    const edges = () =>
      phone.page
        .locator('.table-scroll-frame')
        .evaluate((frame) => [getComputedStyle(frame, '::before').opacity, getComputedStyle(frame, '::after').opacity]);
    await expect.poll(edges).toEqual(['0', '1']);
    await phone.page.locator('.table-scroll').evaluate((scroller) => scroller.scrollTo({ left: scroller.scrollWidth }));
    await expect.poll(edges).toEqual(['1', '0']);
    await desktop.page.reload();
    expect(await pressedLayout(desktop.page)).toBe('Table');
    desktop.assertClean();
    phone.assertClean();
  });

  it('shows the first record right under one row of search and "Filters & sort"', async () => {
    const { page } = phone;
    await page.goto(`${server.baseUrl}/brands`);
    await waitForHydration(page);
    const search = await page.getByRole('search').boundingBox();
    const toggle = await page.getByText('Filters & sort').boundingBox();
    const firstRecord = await page.locator('.records-results tr, .records-results li').nth(1).boundingBox();
    expect(search && toggle && firstRecord).toBeTruthy();
    // The search field and the button share one row.
    expect(Math.abs(search!.y - toggle!.y)).toBeLessThan(8);
    expect(firstRecord!.y - search!.y).toBeLessThanOrEqual(200);
    if (process.env.UI2_SHOTS) await page.screenshot({ path: '/tmp/ui2-phone-list.png' });
    // The sort, layout and filter are behind the button, in a sheet.
    expect(await page.getByLabel('Sort by').isVisible()).toBe(false);
    await page.getByText('Filters & sort').click();
    if (process.env.UI2_SHOTS) await page.screenshot({ path: '/tmp/ui2-phone-sheet.png' });
    await page.getByLabel('Sort by').selectOption({ label: 'Name A–Z' });
    await page.waitForURL(/sort=brandName&dir=asc/);
    phone.assertClean();
  });

  it('shows that a wide table scrolls and keeps its actions column in reach', async () => {
    const { page } = phone;
    // The settings pages are in the avatar's menu, on a phone too.
    await page.getByRole('button', { name: 'Account menu of boss@example.org' }).click();
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await waitForHydration(page);
    // The edge shadow shows on the pinned actions column while columns are hidden under it, and goes at the end.
    const pinnedShadow = () =>
      page
        .locator('.users-table tbody tr td:last-child')
        .first()
        .evaluate((cell) => getComputedStyle(cell).boxShadow);
    await expect.poll(pinnedShadow).toContain('0.35)');
    await page.locator('.table-scroll').evaluate((scroller) => scroller.scrollTo({ left: scroller.scrollWidth }));
    await expect.poll(pinnedShadow).not.toContain('0.35)');
    const deactivate = page.getByRole('button', { name: 'Deactivate a.rather.long.address.for.a.phone@example.org' });
    const box = await deactivate.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    if (process.env.UI2_SHOTS) await page.screenshot({ path: '/tmp/ui2-phone-users.png' });
    await deactivate.click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    // The role select keeps a width a role fits in.
    const role = await page.getByRole('combobox', { name: 'Role of a.rather.long.address.for.a.phone@example.org' }).boundingBox();
    expect(role!.width).toBeGreaterThanOrEqual(100);
    // Emails and dates do not break mid-word: each cell's text is on one line.
    const lines = await page.locator('.users-table tbody td').evaluateAll((cells) =>
      cells
        .filter((cell) => /@|\d{4}/.test(cell.textContent ?? '') && !cell.querySelector('select, button'))
        .map((cell) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        }),
    );
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((count) => count === 1)).toBe(true);
    phone.assertClean();
  });

  it('keeps the detail tabs on one row', async () => {
    const { page } = phone;
    await page.goto(`${server.baseUrl}/brands/${brandId}`);
    await waitForHydration(page);
    const tops = await page.getByRole('tab').evaluateAll((tabs) => tabs.map((tab) => Math.round(tab.getBoundingClientRect().top)));
    if (process.env.UI2_SHOTS) await page.screenshot({ path: '/tmp/ui2-phone-tabs.png' });
    expect(tops.length).toBeGreaterThan(2);
    expect(new Set(tops).size).toBe(1);
    phone.assertClean();
  });
});
