import { beforeAll, describe, expect, it } from 'vitest';
import { encodeTimestamp } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import { insertRecordRow } from '@services/records/writes.js';
import { browserSuite, openPage, waitForHydration } from './harness.js';

describe('first run, sign-in, dashboard, deep link, logout and the mobile drawer (real Chromium)', () => {
  const suite = browserSuite();
  const admin = { email: 'first.admin@example.org', password: 'a long enough password' };

  beforeAll(async () => {
    const now = encodeTimestamp(new Date());
    const db = suite.server.database.db;
    await withTransaction({ db }, async (trx) => {
      for (const eventName of ['Harbour Half', 'Trail 50'])
        await insertRecordRow(trx, 'event', { eventName, createdAt: now, updatedAt: now });
      await insertRecordRow(trx, 'brand', { brandName: 'Stride Shoes', createdAt: now, updatedAt: now });
    });
  });

  it('creates the first admin, signs in, lands on the asked URL, shows counts and 404, and signs out', async () => {
    const watched = await openPage(suite.browser);
    const { page } = watched;

    await page.goto(`${suite.server.baseUrl}/`);
    await waitForHydration(page);
    await expect(page.getByRole('heading', { name: 'Create the first admin account' }).isVisible()).resolves.toBe(true);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Admin');
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.getByRole('button', { name: 'Logout' }).waitFor();
    // The app's page arrives server-rendered: hovering it before React has attached its handlers opens no tooltip.
    await waitForHydration(page);
    await expect(page.getByText(admin.email).isVisible()).resolves.toBe(true);
    await expect(page.locator('.avatar').textContent()).resolves.toBe('FI');
    await expect(page.getByTestId('stat-events').textContent()).resolves.toContain('2');
    await expect(page.getByTestId('stat-brands').textContent()).resolves.toContain('1');
    await expect(page.getByTestId('stat-media').textContent()).resolves.toContain('0');

    // The avatar's tooltip (the user's name) opens only after the 700 ms delay. The page's clock is stopped while
    // the test moves it on, so "not yet at 650 ms, open by 750 ms" holds however slowly the machine runs.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 60_000);
    await page.locator('.avatar').hover();
    await page.clock.runFor(650);
    await expect(page.getByRole('tooltip').count()).resolves.toBe(0);
    await page.clock.runFor(100);
    await expect(page.getByRole('tooltip').textContent()).resolves.toBe('Ada Admin');
    await page.clock.resume();
    await page.mouse.move(0, 400);

    // Each count card links to its list.
    await page.getByTestId('stat-brands').click();
    await page.waitForURL(`${suite.server.baseUrl}/brands`);

    await page.goto(`${suite.server.baseUrl}/no/such/page`);
    await waitForHydration(page);
    await expect(page.getByRole('heading', { name: '404 Page Not Found' }).isVisible()).resolves.toBe(true);
    await expect(page.getByText('Did you forget to add the page to the router?').isVisible()).resolves.toBe(true);

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();

    // A deep link while signed out shows the sign-in screen at that URL, and sign-in lands on it.
    await page.goto(`${suite.server.baseUrl}/integrations?tab=email`);
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Invalid email address').isVisible()).resolves.toBe(true);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    // Hydrated before the console is checked, so a hydration warning of this page would be seen.
    await waitForHydration(page);
    expect(page.url()).toBe(`${suite.server.baseUrl}/integrations?tab=email`);
    await expect(page.getByRole('link', { name: 'Integrations', exact: true }).first().getAttribute('aria-current')).resolves.toBe('page');

    // 401: the wrong password on purpose; 404: the not-found page's own status.
    watched.assertClean({ expectedHttpStatuses: [401, 404] });
    await watched.close();
  });

  it('turns the side navigation into a slide-in drawer at 375 px', async () => {
    const watched = await openPage(suite.browser, { width: 375, height: 740 });
    const { page } = watched;
    await page.goto(`${suite.server.baseUrl}/`);
    await waitForHydration(page);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('button', { name: 'Open navigation' }).waitFor();
    // Server-rendered, the button shows before React has attached its handler: a click before that does nothing.
    await waitForHydration(page);

    await expect(page.locator('aside.side-nav').isVisible()).resolves.toBe(false);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.waitFor();
    for (const label of ['Dashboard', 'Events', 'Professionals', 'Run Clubs', 'Brands', 'Media', 'Influencers', 'Integrations']) {
      await expect(drawer.getByRole('link', { name: label, exact: true }).isVisible()).resolves.toBe(true);
    }
    await drawer.getByRole('link', { name: 'Media', exact: true }).click();
    await page.waitForURL(`${suite.server.baseUrl}/media`);
    await drawer.waitFor({ state: 'hidden' });

    watched.assertClean();
    await watched.close();
  });
});
