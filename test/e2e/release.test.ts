import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffUser, launchBrowser, openPage, signIn, startServer, waitForHydration, type E2EServer } from './harness.js';

describe('the release on the Account page (real Chromium)', () => {
  let server: E2EServer;
  let browser: Browser;
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('names the running release, rendered by the server and kept by the browser bundle', async () => {
    const watched = await openPage(browser);
    const { page } = watched;
    await signIn(page, server.baseUrl, await createStaffUser(server), '/settings/account');
    await expect(page.getByText(`Pacer CRM ${version}`).isVisible()).resolves.toBe(true);
    // Reached again through the app's own navigation: the browser bundle renders it too.
    await page.goto(`${server.baseUrl}/`);
    await waitForHydration(page);
    await page.getByRole('button', { name: /^Account menu of/ }).click();
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    await expect(page.getByText(`Pacer CRM ${version}`).isVisible()).resolves.toBe(true);
    watched.assertClean();
    await watched.close();
  });
});
