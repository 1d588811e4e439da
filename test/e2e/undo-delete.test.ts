import { beforeAll, describe, expect, it } from 'vitest';
import { apiAs, browserSuite, waitForHydration } from './harness.js';
import { cardTitles, confirmDelete, expectHeading, expectToast, openRecordsPage } from './records-steps.js';

/** Issue 29 points 6 and 10: a delete's toast offers Undo, and selecting rows does not push the list down. */
describe('Undo a delete, and the bulk bar over the list (real Chromium)', () => {
  const suite = browserSuite({ signedIn: { path: '/brands', open: openRecordsPage } });

  beforeAll(async () => {
    for (const brandName of ['Alpha Apparel', 'Bravo Bikes', 'Charlie Chews'])
      await apiAs(suite.watched.page, suite.server.baseUrl, 'POST', '/api/brands', { brandName });
  });

  it('deletes a record from its page, says where it can be restored, and Undo in the toast brings it back', async () => {
    const { page } = suite.watched;
    const { id } = await apiAs<{ id: number }>(page, suite.server.baseUrl, 'POST', '/api/brands', { brandName: 'Undo Umbrellas' });
    await page.goto(`${suite.server.baseUrl}/brands/${id}`);
    await waitForHydration(page);
    await expectHeading(page, 'Undo Umbrellas');
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Are you sure you want to delete this brand? This action cannot be undone.', { exact: true }).waitFor();
    expect(await dialog.textContent()).toContain('an admin can restore from Recently deleted for 30 days');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL((url) => url.pathname === '/brands');
    await expectToast(page, 'Brand deleted successfully');
    await page.waitForFunction(
      () => ![...document.querySelectorAll('.records-card-title')].some((el) => el.textContent === 'Undo Umbrellas'),
    );

    await page.getByTestId('toast').getByRole('button', { name: 'Undo' }).click();
    await expectToast(page, 'Brand restored');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.records-card-title')].some((el) => el.textContent === 'Undo Umbrellas'),
    );
    expect((await apiAs<{ brandName: string }>(page, suite.server.baseUrl, 'GET', `/api/brands/${id}`)).brandName).toBe('Undo Umbrellas');
    suite.watched.assertClean();
  });

  it('keeps the first row where it is when selected, and Undo brings back a bulk delete', async () => {
    const { page } = suite.watched;
    await page.goto(`${suite.server.baseUrl}/brands?sort=brandName&dir=asc`);
    await waitForHydration(page);
    const first = page.locator('[data-testid="brand-card"]').first();
    const topBefore = (await first.boundingBox())!.y;
    await page.getByRole('checkbox', { name: 'Select Alpha Apparel' }).click();
    await page.getByText('1 selected').waitFor();
    expect((await first.boundingBox())!.y).toBe(topBefore);
    await page.getByRole('checkbox', { name: 'Select Bravo Bikes' }).click();
    await page.getByText('2 selected').waitFor();
    expect((await first.boundingBox())!.y).toBe(topBefore);

    await confirmDelete(
      page,
      page.getByRole('button', { name: 'Delete selected' }),
      'Are you sure you want to delete 2 brands? The message that follows offers Undo, and an admin can restore from Recently deleted for 30 days.',
    );
    await expectToast(page, '2 brands deleted');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="brand-card"]').length === 2);
    expect(await cardTitles(page)).toEqual(['Charlie Chews', 'Undo Umbrellas']);
    await page.getByTestId('toast').getByRole('button', { name: 'Undo' }).click();
    await expectToast(page, '2 brands restored');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="brand-card"]').length === 4);
    expect(await cardTitles(page)).toEqual(['Alpha Apparel', 'Bravo Bikes', 'Charlie Chews', 'Undo Umbrellas']);
    suite.watched.assertClean();
  });
});
