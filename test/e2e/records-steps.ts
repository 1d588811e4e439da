import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { openPage, type WatchedPage } from './harness.js';

/** Shared steps of the record screens' browser tests. */

export async function expectToast(page: Page, text: string): Promise<void> {
  await page.getByTestId('toast').filter({ hasText: text }).waitFor();
}

export async function expectHeading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { name, exact: true }).waitFor();
}

/** Types into the list's search box and waits for the URL to carry the search. */
export async function search(page: Page, text: string): Promise<void> {
  const box = page.getByRole('searchbox');
  await box.fill(text);
  await box.press('Enter');
  await page.waitForURL((url) => url.searchParams.get('q') === text);
}

/**
 * Cards and rows keep their delete in a "⋯" menu: opens the menu holding `item` when it is hidden in one (find the
 * item with `includeHidden: true`, since a closed menu's items are not rendered).
 */
async function openMenuOf(item: ReturnType<Page['getByRole']>): Promise<void> {
  if (await item.isVisible()) return;
  await item.locator('xpath=ancestor::details[1]/summary').click();
  await item.waitFor();
}

/** Opens the delete dialog with `trigger`, checks its question word for word and confirms. */
export async function confirmDelete(page: Page, trigger: ReturnType<Page['getByRole']>, question: string): Promise<void> {
  await openMenuOf(trigger);
  await trigger.click();
  const dialog = page.getByRole('alertdialog');
  await dialog.waitFor();
  await expect(dialog.getByText(question, { exact: true }).isVisible()).resolves.toBe(true);
  // Focus starts on the safe choice (moved there by an effect, so possibly a moment after the dialog shows).
  await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await dialog.waitFor({ state: 'detached' });
}

export function cardTitles(page: Page): Promise<string[]> {
  return page.locator('.records-card-title').allTextContents();
}

/**
 * A watched page for the record screens. The harness serves only the built assets, not public/favicon.svg, so
 * Chromium's favicon request would log a 404 at random moments: it is answered from the real file instead.
 */
export async function openRecordsPage(browser: Browser, options?: Parameters<typeof openPage>[1]): Promise<WatchedPage> {
  const watched = await openPage(browser, options);
  await watched.context.route('**/favicon.svg', (route) => route.fulfill({ path: 'public/favicon.svg', contentType: 'image/svg+xml' }));
  return watched;
}
