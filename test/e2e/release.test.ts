import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserSuite, createStaffUser, openPage, signIn, waitForHydration } from './harness.js';

describe('the release on the Account page (real Chromium)', () => {
  const suite = browserSuite();
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

  it('names the running release, rendered by the server and kept by the browser bundle', async () => {
    const watched = await openPage(suite.browser);
    const { page } = watched;
    await signIn(page, suite.server.baseUrl, await createStaffUser(suite.server), '/settings/account');
    await expect(page.getByText(`Pacer CRM ${version}`).isVisible()).resolves.toBe(true);
    // Reached again through the app's own navigation: the browser bundle renders it too.
    await page.goto(`${suite.server.baseUrl}/`);
    await waitForHydration(page);
    await page.getByRole('button', { name: /^Account menu of/ }).click();
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    await expect(page.getByText(`Pacer CRM ${version}`).isVisible()).resolves.toBe(true);
    watched.assertClean();
    await watched.close();
  });
});
