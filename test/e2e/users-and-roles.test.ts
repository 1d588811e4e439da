import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTimestamp } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import { insertRecordRow } from '@services/records/writes.js';
import { createUser } from '@services/users/service.js';
import { TEST_PASSWORD } from '../helpers/app.js';
import { apiAs, launchBrowser, openPage, signIn, startServer, waitForHydration, type E2EServer } from './harness.js';

describe('users in the browser and what a viewer sees (real Chromium)', () => {
  let server: E2EServer;
  let browser: Browser;
  let brandId: number;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    await createUser(server.ctx, { email: 'boss@example.org', password: TEST_PASSWORD, firstName: 'Bo', lastName: 'Boss', role: 'admin' });
    await createUser(server.ctx, {
      email: 'watcher@example.org',
      password: TEST_PASSWORD,
      firstName: 'Wat',
      lastName: 'Cher',
      role: 'viewer',
    });
    const now = encodeTimestamp(new Date());
    brandId = await withTransaction({ db: server.database.db }, (trx) =>
      insertRecordRow(trx, 'brand', { brandName: 'Stride Shoes', createdAt: now, updatedAt: now }),
    );
    await server.database.db('contacts').insert({
      firstName: 'Jane',
      lastName: 'Doe',
      entityType: 'brand',
      entityId: brandId,
      isPrimary: 0,
      mailchimpTags: '[]',
      createdAt: now,
      updatedAt: now,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('an admin adds a staff user, who sets a password through the one-time link and signs in', async () => {
    const adminPage = await openPage(browser);
    const { page } = adminPage;
    await signIn(page, server.baseUrl, { email: 'boss@example.org', password: TEST_PASSWORD });
    // The settings pages are in the avatar's menu.
    await page.getByLabel('Account menu of boss@example.org').click();
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await waitForHydration(page);
    await page.getByLabel('Email').fill('new.runner@example.org');
    await page.getByLabel('First name').fill('Nia');
    await page.getByLabel('Last name').fill('Runner');
    await page.getByLabel('Role', { exact: true }).selectOption('staff');
    await page.getByRole('button', { name: 'Add user' }).click();
    const linkInput = page.getByLabel('One-time link');
    await linkInput.waitFor();
    const link = await linkInput.inputValue();
    expect(link).toMatch(/\/set-password\/[A-Za-z0-9_-]{43}$/);
    await page.getByRole('cell', { name: 'new.runner@example.org', exact: true }).waitFor();
    adminPage.assertClean();
    await adminPage.close();

    const newcomer = await openPage(browser);
    await newcomer.page.goto(link);
    await newcomer.page.getByRole('heading', { name: 'Set your password' }).waitFor();
    await waitForHydration(newcomer.page);
    await newcomer.page.getByLabel('New password').fill('my own long password');
    await newcomer.page.getByLabel('Repeat password').fill('my own long password');
    await newcomer.page.getByRole('button', { name: 'Set password' }).click();
    await newcomer.page.getByRole('button', { name: 'Logout' }).waitFor();
    await expect(newcomer.page.getByText('new.runner@example.org').isVisible()).resolves.toBe(true);
    // Staff see no Users link: that page is for admins.
    await newcomer.page.getByLabel('Account menu of new.runner@example.org').click();
    await newcomer.page.getByRole('link', { name: 'Account' }).waitFor();
    await expect(newcomer.page.getByRole('link', { name: 'Users' }).count()).resolves.toBe(0);
    newcomer.assertClean();
    await newcomer.close();
  });

  it('a viewer reads the brand list and detail page with no edit, delete or add buttons', async () => {
    const watched = await openPage(browser);
    const { page } = watched;
    await signIn(page, server.baseUrl, { email: 'watcher@example.org', password: TEST_PASSWORD }, '/brands');
    await page.getByRole('link', { name: 'Stride Shoes' }).waitFor();
    await waitForHydration(page);
    for (const name of ['Add Brand', 'Bulk Import', 'Edit Stride Shoes', 'Delete Stride Shoes'])
      await expect(page.getByRole('link', { name }).or(page.getByRole('button', { name })).count()).resolves.toBe(0);

    await page.getByRole('link', { name: 'Stride Shoes' }).click();
    await page.getByRole('heading', { name: 'Stride Shoes' }).waitFor();
    await page.getByRole('link', { name: 'Jane Doe' }).waitFor();
    for (const name of ['Edit Brand', 'Delete', 'Add Contact', 'Edit Jane Doe', 'Add Payment', 'Upload Files'])
      await expect(page.getByRole('link', { name }).or(page.getByRole('button', { name })).count()).resolves.toBe(0);
    watched.assertClean();
    await watched.close();
  });
});

describe('Recently deleted (real Chromium)', () => {
  let server: E2EServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    await createUser(server.ctx, {
      email: 'keeper@example.org',
      password: TEST_PASSWORD,
      firstName: 'Kee',
      lastName: 'Per',
      role: 'admin',
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('an admin deletes a brand, finds it in Recently deleted and restores it with its contact', async () => {
    const watched = await openPage(browser);
    const { page } = watched;
    await signIn(page, server.baseUrl, { email: 'keeper@example.org', password: TEST_PASSWORD });
    const brand = await apiAs<{ id: number }>(page, server.baseUrl, 'POST', '/api/brands', { brandName: 'Comeback Shoes' });
    await apiAs(page, server.baseUrl, 'POST', '/api/contacts', {
      firstName: 'Jane',
      lastName: 'Doe',
      entityType: 'brand',
      entityId: brand.id,
      isPrimary: true,
    });
    await apiAs(page, server.baseUrl, 'DELETE', `/api/brands/${brand.id}`);

    await page.getByLabel('Account menu of keeper@example.org').click();
    await page.getByRole('link', { name: 'Recently deleted' }).click();
    await page.getByRole('heading', { name: 'Recently deleted' }).waitFor();
    await waitForHydration(page);
    await page.getByRole('cell', { name: 'Comeback Shoes', exact: true }).waitFor();
    await expect(page.getByRole('cell', { name: '1 contact, 0 payments, 0 files' }).count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Restore Comeback Shoes' }).click();
    await page.getByText('Nothing deleted recently').waitFor();

    await page.goto(`${server.baseUrl}/brands/${brand.id}`);
    await page.getByRole('heading', { name: 'Comeback Shoes' }).waitFor();
    await page.getByRole('link', { name: 'Jane Doe' }).waitFor();
    watched.assertClean();
    await watched.close();
  });
});
