import { beforeAll, describe, expect, it } from 'vitest';
import { encodeTimestamp } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import { insertRecordRow } from '@services/records/writes.js';
import { createUser } from '@services/users/service.js';
import { TEST_PASSWORD } from '../helpers/app.js';
import { apiAs, browserSuite, openPage, signIn, waitForHydration } from './harness.js';

describe('users in the browser and what a viewer sees (real Chromium)', () => {
  const suite = browserSuite();
  let brandId: number;

  beforeAll(async () => {
    await createUser(suite.server.ctx, {
      email: 'boss@example.org',
      password: TEST_PASSWORD,
      firstName: 'Bo',
      lastName: 'Boss',
      role: 'admin',
    });
    await createUser(suite.server.ctx, {
      email: 'watcher@example.org',
      password: TEST_PASSWORD,
      firstName: 'Wat',
      lastName: 'Cher',
      role: 'viewer',
    });
    const now = encodeTimestamp(new Date());
    brandId = await withTransaction({ db: suite.server.database.db }, (trx) =>
      insertRecordRow(trx, 'brand', { brandName: 'Stride Shoes', createdAt: now, updatedAt: now }),
    );
    await suite.server.database.db('contacts').insert({
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

  it('an admin adds a staff user, who sets a password through the one-time link and signs in', async () => {
    const adminPage = await openPage(suite.browser);
    const { page } = adminPage;
    await signIn(page, suite.server.baseUrl, { email: 'boss@example.org', password: TEST_PASSWORD });
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

    const newcomer = await openPage(suite.browser);
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
    const watched = await openPage(suite.browser);
    const { page } = watched;
    await signIn(page, suite.server.baseUrl, { email: 'watcher@example.org', password: TEST_PASSWORD }, '/brands');
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
  const suite = browserSuite();

  beforeAll(async () => {
    await createUser(suite.server.ctx, {
      email: 'keeper@example.org',
      password: TEST_PASSWORD,
      firstName: 'Kee',
      lastName: 'Per',
      role: 'admin',
    });
  });

  it('an admin deletes a brand, finds it in Recently deleted and restores it with its contact', async () => {
    const watched = await openPage(suite.browser);
    const { page } = watched;
    await signIn(page, suite.server.baseUrl, { email: 'keeper@example.org', password: TEST_PASSWORD });
    const brand = await apiAs<{ id: number }>(page, suite.server.baseUrl, 'POST', '/api/brands', { brandName: 'Comeback Shoes' });
    await apiAs(page, suite.server.baseUrl, 'POST', '/api/contacts', {
      firstName: 'Jane',
      lastName: 'Doe',
      entityType: 'brand',
      entityId: brand.id,
      isPrimary: true,
    });
    await apiAs(page, suite.server.baseUrl, 'DELETE', `/api/brands/${brand.id}`);

    await page.getByLabel('Account menu of keeper@example.org').click();
    await page.getByRole('link', { name: 'Recently deleted' }).click();
    await page.getByRole('heading', { name: 'Recently deleted' }).waitFor();
    await waitForHydration(page);
    await page.getByRole('cell', { name: 'Comeback Shoes', exact: true }).waitFor();
    await expect(page.getByRole('cell', { name: '1 contact, 0 payments, 0 files' }).count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Restore Comeback Shoes' }).click();
    await page.getByText('Nothing deleted recently').waitFor();

    await page.goto(`${suite.server.baseUrl}/brands/${brand.id}`);
    await page.getByRole('heading', { name: 'Comeback Shoes' }).waitFor();
    await page.getByRole('link', { name: 'Jane Doe' }).waitFor();
    watched.assertClean();
    await watched.close();
  });
});
