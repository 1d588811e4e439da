import { describe, expect, it } from 'vitest';
import { apiAs, browserSuite, createStaffUser, openPage, signIn, waitForHydration } from './harness.js';

describe('Possible duplicates and merge (real Chromium)', () => {
  const suite = browserSuite();

  it('warns in the add form, lists the pair, dismisses one and merges another, without console errors', async () => {
    const watched = await openPage(suite.browser);
    const { page } = watched;
    await signIn(page, suite.server.baseUrl, await createStaffUser(suite.server), '/brands/add');
    const keep = await apiAs<{ id: number }>(page, suite.server.baseUrl, 'POST', '/api/brands', { brandName: 'Sole Motive' });
    await apiAs(page, suite.server.baseUrl, 'POST', '/api/brands', { brandName: 'Harbour Shoes' });
    await apiAs(page, suite.server.baseUrl, 'POST', '/api/brands', { brandName: 'Harbour Shoes Pty Ltd' });

    // The add form's notice: leaving the name field asks, and the save is not blocked.
    await page.getByLabel('Brand name').fill('Solemotive Pty Ltd');
    await page.getByLabel('Brand name').blur();
    await page.getByRole('status').getByText('Possible duplicate').waitFor();
    await page.getByRole('status').getByRole('link', { name: 'Sole Motive' }).waitFor();
    await page.getByRole('button', { name: 'Create Brand' }).click();
    await page.waitForURL(/\/brands\/\d+$/);
    const mergeId = Number(new URL(page.url()).pathname.split('/').pop());

    await page.goto(`${suite.server.baseUrl}/duplicates?type=brands`);
    await waitForHydration(page);
    const table = page.getByRole('table', { name: 'Possible duplicates' });
    await table.getByText('Harbour Shoes Pty Ltd').waitFor();
    const harbourRow = table.getByRole('row').filter({ hasText: 'Harbour Shoes Pty Ltd' });
    await harbourRow.getByRole('button', { name: 'Not a duplicate' }).click();
    await table.getByText('Harbour Shoes Pty Ltd').waitFor({ state: 'detached' });

    const soleRow = table.getByRole('row').filter({ hasText: 'Solemotive Pty Ltd' });
    await expect(soleRow.getByText('same name').count()).resolves.toBe(1);
    await soleRow.getByRole('link', { name: 'Merge' }).click();
    await page.waitForURL(/\/duplicates\/merge\?/);
    await page.getByRole('table', { name: 'Fields to keep' }).waitFor();
    await page.getByRole('button', { name: 'Merge' }).click();
    await page.waitForURL(/\/duplicates\?type=brands$/);
    await page.getByText('No possible duplicates').waitFor();
    expect((await fetch(`${suite.server.baseUrl}/api/brands/${mergeId}`)).status).not.toBe(200);
    expect(keep.id).toBeLessThan(mergeId);
    watched.assertClean();
    await watched.close();
  });
});
