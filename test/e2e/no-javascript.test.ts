import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffUser, launchBrowser, openPage, startServer, type E2EServer, type WatchedPage } from './harness.js';

/**
 * Record and contact forms are real form posts to their own page (route actions), so they work with JavaScript off: the
 * server runs the action, redirects, and renders the result.
 */
describe('brands with JavaScript off (real Chromium)', () => {
  let server: E2EServer;
  let browser: Browser;
  let watched: WatchedPage;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const credentials = await createStaffUser(server);
    watched = await openPage(browser, { javaScriptEnabled: false });
    // The sign-in form posts to the page it is shown on: a wrong password comes back with the message, the right
    // one loads the page asked for, signed in.
    const { page } = watched;
    await page.goto(`${server.baseUrl}/brands`);
    await page.getByLabel('Email').fill(credentials.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Invalid email or password');
    expect(page.url()).toBe(`${server.baseUrl}/brands`);
    watched.assertClean({ expectedHttpStatuses: [401] });
    await page.getByLabel('Email').fill(credentials.email);
    await page.getByLabel('Password').fill(credentials.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('heading', { level: 1, name: 'Brands' }).waitFor();
  });
  afterAll(async () => {
    await watched?.close();
    await browser?.close();
    await server?.close();
  });

  it('adds, edits and deletes a brand, and the list shows each result', async () => {
    const { page } = watched;
    const base = server.baseUrl;
    const heading = (name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
    // Nothing runs in the page: no script means no hydration, so every step below is a document load.
    await page.goto(`${base}/brands`);
    await heading('Brands');
    await expect(
      page.evaluate(() => Object.keys(document.getElementById('root')!).some((key) => key.startsWith('__reactContainer'))),
    ).resolves.toBe(false);

    await page.getByRole('link', { name: 'Add Brand' }).click();
    await heading('Add New Brand');
    // A refused form comes back from the server with the message under its field and the spec's failure text.
    await page.getByRole('button', { name: 'Create Brand' }).click();
    await expect(page.locator('#field-brandName-error').textContent()).resolves.toBe('Brand name is required');
    await expect(page.getByRole('alert').filter({ hasText: 'Failed to create brand' }).textContent()).resolves.toContain(
      'Brand name is required',
    );
    await expect(page.getByLabel('Brand name').getAttribute('aria-invalid')).resolves.toBe('true');

    await page.getByLabel('Brand name').fill('Stride Shoes');
    await page.getByLabel('Industry category').fill('Footwear');
    await page.getByRole('button', { name: 'Create Brand' }).click();
    await page.waitForURL(/\/brands\/\d+$/);
    await heading('Stride Shoes');
    const detailUrl = page.url();

    await page.goto(`${base}/brands`);
    await expect(page.getByTestId('brand-card').allTextContents()).resolves.toEqual([expect.stringContaining('Stride Shoes')]);

    await page.goto(detailUrl);
    await page.getByRole('link', { name: 'Edit Brand' }).click();
    await heading('Edit Brand');
    await page.getByLabel('Brand name').fill('Stride Running');
    await page.getByRole('button', { name: 'Update Brand' }).click();
    await page.waitForURL(detailUrl);
    await heading('Stride Running');
    await page.goto(`${base}/brands?q=stride`);
    await expect(page.getByTestId('brand-card').allTextContents()).resolves.toEqual([expect.stringContaining('Stride Running')]);

    // Without script there is no dialog: Delete posts the page's delete form, which first asks the question.
    await page.goto(detailUrl);
    await page.getByRole('button', { name: 'Delete' }).click();
    const question = page.getByRole('alertdialog', { name: 'Confirm deletion' });
    await question.getByText('Are you sure you want to delete this brand?').waitFor();
    await expect(server.ctx.db('brands').count({ n: '*' }).first()).resolves.toMatchObject({ n: 1 });
    await question.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(`${base}/brands`);
    await page.getByRole('heading', { name: 'No brands found' }).waitFor();
    await expect(server.ctx.db('brands').count({ n: '*' }).first()).resolves.toMatchObject({ n: 0 });
    // The refused form above answered 400 on purpose.
    watched.assertClean({ expectedHttpStatuses: [400] });
  });

  it("adds and edits a brand's contact on its own pages, and deletes it after the question", async () => {
    const { page } = watched;
    const base = server.baseUrl;
    const heading = (name: string) => page.getByRole('heading', { level: 1, name }).waitFor();
    const created = await watched.context.request.post(`${base}/api/brands`, {
      data: { brandName: 'Contact Brand' },
      headers: { Origin: base },
    });
    const brandId = ((await created.json()) as { id: number }).id;
    const contactRows = () => server.ctx.db('contacts').where({ entityType: 'brand', entityId: brandId });

    // The owner-scoped add page is a real form: a refused post comes back with the message under its field.
    await page.goto(`${base}/brands/${brandId}/contacts/add`);
    await heading('Add Contact');
    await page.getByLabel('Last Name').fill('Lee');
    await page.getByRole('button', { name: 'Create Contact' }).click();
    const firstName = page.getByLabel('First Name');
    await expect(firstName.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.locator(`#${await firstName.getAttribute('aria-describedby')}`).textContent()).resolves.toBe(
      'First name is required',
    );
    await expect(page.getByRole('alert').filter({ hasText: 'Failed to create contact' }).count()).resolves.toBe(1);
    await page.getByLabel('First Name').fill('Kim');
    await page.getByLabel('Last Name').fill('Lee');
    await page.getByLabel('Mailchimp Tags').fill('runners, vip');
    await page.getByLabel('Primary contact').check();
    await page.getByRole('button', { name: 'Create Contact' }).click();
    await page.waitForURL(`${base}/brands/${brandId}`);
    await page.getByRole('link', { name: 'Kim Lee', exact: true }).waitFor();
    const [row] = (await contactRows()) as Array<{ id: number; isPrimary: number | boolean }>;
    expect(Boolean(row?.isPrimary)).toBe(true);

    // Editing: the brand card's Edit opens a dialog, which needs script; the owner-scoped edit page does not.
    await page.goto(`${base}/brands/${brandId}/contacts/${row!.id}/edit`);
    await heading('Edit Contact');
    await expect(page.getByLabel('Mailchimp Tags').inputValue()).resolves.toBe('runners, vip');
    await page.getByLabel('Job Title').fill('Marketing lead');
    await page.getByRole('button', { name: 'Update Contact' }).click();
    await page.waitForURL(`${base}/brands/${brandId}`);
    await page.getByText('Marketing lead').waitFor();

    // The card's Delete posts the page, which first asks the card's question; only its own Delete deletes.
    await page.getByLabel('More actions for Kim Lee').click();
    await page.getByRole('button', { name: 'Delete Kim Lee' }).click();
    const question = page.getByRole('alertdialog', { name: 'Confirm deletion' });
    await question.getByText('Are you sure you want to delete this contact?').waitFor();
    await expect(contactRows()).resolves.toHaveLength(1);
    await question.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(`${base}/brands/${brandId}`);
    await page.getByText('No contacts added yet').waitFor();
    await expect(contactRows()).resolves.toHaveLength(0);
    watched.assertClean({ expectedHttpStatuses: [400] });
  });

  it('pages a list with Next and Previous by cursor, each page the rows its number shows', async () => {
    const { page } = watched;
    const base = server.baseUrl;
    for (let i = 1; i <= 30; i++) {
      const res = await watched.context.request.post(`${base}/api/brands`, {
        data: { brandName: `Paged Brand ${String(i).padStart(2, '0')}` },
        headers: { Origin: base },
      });
      expect(res.status()).toBe(201);
    }
    const cards = () => page.getByTestId('brand-card').allTextContents();
    const list = `${base}/brands?sort=brandName&dir=asc`;
    await page.goto(`${list}&page=2`);
    const numberedSecond = await cards();
    await page.goto(list);
    const numberedFirst = await cards();
    expect(numberedFirst).toHaveLength(24);

    await page.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2' && url.searchParams.has('after'));
    await page.getByText('Page 2 of 2').waitFor();
    await expect(cards()).resolves.toEqual(numberedSecond);
    await expect(page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Next' }).count()).resolves.toBe(0);

    await page.getByRole('link', { name: 'Previous' }).click();
    await page.waitForURL((url) => !url.searchParams.has('page') && !url.searchParams.has('before'));
    await expect(cards()).resolves.toEqual(numberedFirst);
    watched.assertClean();
  });
});
