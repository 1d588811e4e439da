import { describe, expect, it } from 'vitest';
import { createUser } from '@services/users/service.js';
import { TEST_PASSWORD } from '../helpers/app.js';
import { apiAs, browserSuite, openPage, signIn, waitForHydration } from './harness.js';
import { expectHeading, expectToast, openRecordsPage } from './records-steps.js';

/** Issue 33 points 4 and 5: a record's Activity timeline and the admin activity log (real Chromium). */
describe('activity in the browser', () => {
  const suite = browserSuite({ signedIn: { path: '/', open: openRecordsPage } });

  it('shows a note just added in the Activity timeline, and filters it by kind', async () => {
    const { page } = suite.watched;
    const base = suite.server.baseUrl;
    const { id } = await apiAs<{ id: number }>(page, base, 'POST', '/api/brands', { brandName: 'Timeline Brand' });
    await apiAs(page, base, 'PUT', `/api/brands/${id}`, { brandName: 'Timeline Brand Co' });
    await page.goto(`${base}/brands/${id}?tab=notes`);
    await waitForHydration(page);
    await expectHeading(page, 'Timeline Brand Co');
    await page.getByLabel('New note').fill('Called about the spring race');
    await page.getByRole('button', { name: 'Add note' }).click();
    await expectToast(page, 'Note added');

    await page.getByRole('tab', { name: 'Activity' }).click();
    const timeline = page.getByRole('list', { name: 'Activity timeline' });
    await timeline.locator('li[data-kind="note"]', { hasText: 'Called about the spring race' }).waitFor();
    // Newest first: the note, then the rename, then the create.
    await timeline.locator('li[data-kind="change"]').nth(1).waitFor();
    expect(await timeline.locator('li').first().getAttribute('data-kind')).toBe('note');

    await page.getByLabel('Show').selectOption('change');
    await page.waitForFunction(() => {
      const items = [...document.querySelectorAll('[aria-label="Activity timeline"] li')];
      return items.length === 2 && items.every((item) => item.getAttribute('data-kind') === 'change');
    });
    expect(await timeline.textContent()).toContain('changed Brand name from Timeline Brand to Timeline Brand Co');
    suite.watched.assertClean();
  });

  it('lets an admin open the activity log and filter it by kind', async () => {
    await createUser(suite.server.ctx, {
      email: 'ada@example.org',
      password: TEST_PASSWORD,
      firstName: 'Ada',
      lastName: 'Admin',
      role: 'admin',
    });
    const watched = await openPage(suite.browser);
    const { page } = watched;
    await signIn(page, suite.server.baseUrl, { email: 'ada@example.org', password: TEST_PASSWORD }, '/settings/activity');
    await waitForHydration(page);
    await expectHeading(page, 'Activity log');
    const log = page.getByRole('table', { name: 'Activity log' });
    // Her own sign-in, just now, is the newest entry.
    await log.locator('tr[data-kind="sign_in"]', { hasText: 'Ada Admin signed in' }).first().waitFor();
    await page.getByLabel('Kind').selectOption('note');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/kind=note/);
    await log.locator('tr[data-kind="note"]', { hasText: 'Called about the spring race' }).waitFor();
    expect(await log.locator('tbody tr:not([data-kind="note"])').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe('/api/activity.csv?kind=note');
    watched.assertClean();
    await watched.close();
  });
});
