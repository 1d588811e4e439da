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
import { expectHeading, expectToast, openRecordsPage } from './records-steps.js';

/** Issue 13, point 6, in Chromium: two people edit the same brand; the later save is told, not silently lost. */
describe('no silent lost updates: two pages edit the same brand (real Chromium)', () => {
  let server: E2EServer;
  let browser: Browser;
  let first: WatchedPage;
  let second: WatchedPage;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    first = await openRecordsPage(browser);
    second = await openRecordsPage(browser);
    await signIn(first.page, server.baseUrl, await createStaffUser(server, 'anna@example.org'), '/brands');
    await signIn(second.page, server.baseUrl, await createStaffUser(server, 'ben@example.org'), '/brands');
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await browser?.close();
    await server?.close();
  });

  it('the second save gets the conflict message with the typed values kept, and Save anyway succeeds', async () => {
    const base = server.baseUrl;
    const brand = await apiAs<{ id: number }>(first.page, base, 'POST', '/api/brands', { brandName: 'Stride', notes: 'first notes' });
    for (const { page } of [first, second]) {
      await page.goto(`${base}/brands/${brand.id}/edit`);
      await waitForHydration(page);
      await expectHeading(page, 'Edit Brand');
    }

    await first.page.getByLabel('Notes').fill('Anna’s notes');
    await first.page.getByRole('button', { name: 'Update Brand' }).click();
    await expectToast(first.page, 'Brand updated successfully');
    await first.page.waitForURL(`${base}/brands/${brand.id}`);

    const { page } = second;
    await page.getByLabel('Brand name').fill('Stride Running');
    await page.getByRole('button', { name: 'Update Brand' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'after you opened it' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(
      /This brand was changed by Sam Staff at \d{4}-\d\d-\d\dT[\d:.]+Z after you opened it\. Reload to see their change, or save again to overwrite it\./,
    );
    expect(await page.getByLabel('Brand name').inputValue()).toBe('Stride Running');
    expect(page.url()).toBe(`${base}/brands/${brand.id}/edit`);
    expect((await apiAs<{ brandName: string }>(page, base, 'GET', `/api/brands/${brand.id}`)).brandName).toBe('Stride');
    await expect(alert.getByRole('link', { name: 'Reload' }).getAttribute('href')).resolves.toBe(`/brands/${brand.id}/edit`);

    await alert.getByRole('button', { name: 'Save anyway' }).click();
    await expectToast(page, 'Brand updated successfully');
    await page.waitForURL(`${base}/brands/${brand.id}`);
    await expectHeading(page, 'Stride Running');
    // Save anyway overwrote deliberately: the whole form as Ben left it, Anna's notes replaced by what his form held.
    expect(await apiAs<{ brandName: string; notes: string }>(page, base, 'GET', `/api/brands/${brand.id}`)).toMatchObject({
      brandName: 'Stride Running',
      notes: 'first notes',
    });
    first.assertClean();
    second.assertClean({ expectedHttpStatuses: [409] });
  });
});
