import { readdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiAs, browserSuite, waitForHydration } from './harness.js';
import { confirmDelete, expectToast, openRecordsPage } from './records-steps.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describe('contacts, payments and files on record pages (real Chromium)', () => {
  const suite = browserSuite({ signedIn: { path: '/', open: openRecordsPage } });
  let page: Page;
  let base: string;

  const path = () => {
    const url = new URL(page.url());
    return url.pathname + url.search;
  };

  beforeAll(async () => {
    base = suite.server.baseUrl;
    page = suite.watched.page;
  });

  it('adds, opens, edits and deletes a contact of an event, honouring the return path', async () => {
    const event = await apiAs<{ id: number }>(page, base, 'POST', '/api/events', { eventName: 'Harbour Half' });
    await page.goto(`${base}/events/${event.id}`);
    await waitForHydration(page);
    await page.getByRole('tab', { name: 'Contacts (0)' }).click();
    await page.getByRole('link', { name: 'Add Contact' }).click();
    await page.waitForURL(`${base}/events/${event.id}/contacts/add`);
    await page.getByLabel('First Name').fill('Jane');
    await page.getByLabel('Last Name').fill('Doe');
    await page.getByLabel('Email').fill('jane@example.org');
    await page.getByLabel('Phone').fill('0400 111 222');
    await page.getByLabel('Mailchimp Tags').fill('runners, vip,, runners');
    await page.getByLabel('Primary contact').check();
    await page.getByRole('button', { name: 'Create Contact' }).click();
    await expectToast(page, 'Contact created successfully');
    await page.waitForURL(`${base}/events/${event.id}?tab=contacts`);

    const contactLink = page.getByRole('link', { name: 'Jane Doe', exact: true });
    await contactLink.waitFor();
    await expect(page.getByText('Primary', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('link', { name: 'jane@example.org' }).getAttribute('href')).resolves.toBe('mailto:jane@example.org');
    await contactLink.click();
    await page.waitForURL((url) => url.pathname.startsWith('/contacts/'));
    expect(new URL(page.url()).searchParams.get('return')).toBe(`/events/${event.id}?tab=contacts`);
    await page.getByRole('heading', { name: 'Jane Doe' }).waitFor();
    // Tags were split, trimmed, emptied and de-duplicated.
    await expect(page.locator('.attachments-tags .badge').allTextContents()).resolves.toEqual(['runners', 'vip']);

    await page.getByRole('link', { name: 'Edit Contact' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/edit'));
    await page.getByLabel('Job Title').fill('Race director');
    await page.getByRole('button', { name: 'Update Contact' }).click();
    await expectToast(page, 'Contact updated successfully');
    await page.waitForURL(`${base}/events/${event.id}?tab=contacts`);
    await page.getByText('Race director').waitFor();

    // Editing from the tab goes through the owner-scoped page and back.
    await page.getByRole('link', { name: 'Edit Jane Doe' }).click();
    await page.waitForURL((url) => /\/events\/\d+\/contacts\/\d+\/edit$/.test(url.pathname));
    await page.getByLabel('Last Name').fill('Smith');
    await page.getByRole('button', { name: 'Update Contact' }).click();
    await expectToast(page, 'Contact updated successfully');
    await page.waitForURL(`${base}/events/${event.id}?tab=contacts`);

    // A return path leading off the site is replaced by '/'.
    const contactId = (await apiAs<Array<{ id: number }>>(page, base, 'GET', `/api/contacts/event/${event.id}`))[0]!.id;
    await page.goto(`${base}/contacts/${contactId}?return=${encodeURIComponent('//evil.example/x')}`);
    await waitForHydration(page);
    await expect(page.getByRole('link', { name: /Back/ }).first().getAttribute('href')).resolves.toBe('/');
    await page.goto(`${base}/contacts/${contactId}?return=${encodeURIComponent(`/events/${event.id}?tab=contacts`)}`);
    await waitForHydration(page);
    await confirmDelete(
      page,
      page.getByRole('button', { name: 'Delete' }),
      'Are you sure you want to delete this contact? This action cannot be undone.',
    );
    await expectToast(page, 'Contact deleted successfully.');
    await page.waitForURL(`${base}/events/${event.id}?tab=contacts`);
    await page.getByText('No contacts added yet').waitFor();
    suite.watched.assertClean();
  });

  it('deletes a contact from the event tab with the named question', async () => {
    const event = await apiAs<{ id: number }>(page, base, 'POST', '/api/events', { eventName: 'Trail 50' });
    await apiAs(page, base, 'POST', '/api/contacts', { firstName: 'Al', lastName: 'Bo', entityType: 'event', entityId: event.id });
    await page.goto(`${base}/events/${event.id}?tab=contacts`);
    await waitForHydration(page);
    await confirmDelete(
      page,
      page.getByRole('button', { name: 'Delete Al Bo', includeHidden: true }),
      'Are you sure you want to delete Al Bo? This action cannot be undone.',
    );
    await expectToast(page, 'Contact deleted successfully.');
    await page.getByText('No contacts added yet').waitFor();
    expect(path()).toBe(`/events/${event.id}?tab=contacts`);
    suite.watched.assertClean();
  });

  it('adds, edits and deletes a brand contact in the dialog', async () => {
    const brand = await apiAs<{ id: number }>(page, base, 'POST', '/api/brands', { brandName: 'Stride Shoes' });
    await page.goto(`${base}/brands/${brand.id}`);
    await waitForHydration(page);
    await page.getByText('No contacts added yet').waitFor();
    await page.getByRole('button', { name: 'Add First Contact' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Create Contact' }).click();
    await dialog.getByText('First name is required').waitFor();
    await dialog.getByLabel('First Name').fill('Kim');
    await dialog.getByLabel('Last Name').fill('Lee');
    await dialog.getByLabel('Job Title').fill('Marketing lead');
    await dialog.getByRole('button', { name: 'Create Contact' }).click();
    await expectToast(page, 'Contact added successfully');
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Contacts (1)').waitFor();
    await page.getByText('Marketing lead').waitFor();

    await page.getByRole('button', { name: 'Edit Kim Lee' }).click();
    await dialog.getByLabel('Job Title').fill('Head of marketing');
    await dialog.getByRole('button', { name: 'Update Contact' }).click();
    await expectToast(page, 'Contact updated successfully');
    await page.getByText('Head of marketing').waitFor();

    // The contact page returns to the brand.
    await page.getByRole('link', { name: 'Kim Lee' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/contacts/') && url.searchParams.get('return') === `/brands/${brand.id}`);
    await page.getByRole('link', { name: /Back/ }).first().click();
    await page.waitForURL(`${base}/brands/${brand.id}`);

    await confirmDelete(
      page,
      page.getByRole('button', { name: 'Delete Kim Lee', includeHidden: true }),
      'Are you sure you want to delete this contact?',
    );
    await expectToast(page, 'Contact deleted successfully');
    await page.getByText('No contacts added yet').waitFor();
    suite.watched.assertClean();
  });

  it('edits a media contact on the contact edit page and returns to the outlet; adds a professional contact on its page', async () => {
    const media = await apiAs<{ id: number }>(page, base, 'POST', '/api/media', { mediaName: 'Runner Weekly' });
    await apiAs(page, base, 'POST', '/api/contacts', { firstName: 'Mo', lastName: 'Reed', entityType: 'media', entityId: media.id });
    await page.goto(`${base}/media/${media.id}`);
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Edit Mo Reed' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/edit') && url.searchParams.get('return') === `/media/${media.id}`);
    await page.getByLabel('Job Title').fill('Editor');
    await page.getByRole('button', { name: 'Update Contact' }).click();
    await expectToast(page, 'Contact updated successfully');
    await page.waitForURL(`${base}/media/${media.id}`);
    await page.getByText('Editor', { exact: true }).waitFor();

    const pro = await apiAs<{ id: number }>(page, base, 'POST', '/api/professionals', { businessName: 'Stride Physio' });
    await page.goto(`${base}/professionals/${pro.id}/contacts/add`);
    await waitForHydration(page);
    await page.getByLabel('First Name').fill('Pat');
    await page.getByLabel('Last Name').fill('Kay');
    await page.getByRole('button', { name: 'Create Contact' }).click();
    await expectToast(page, 'Contact created successfully');
    await page.waitForURL(`${base}/professionals/${pro.id}?tab=contacts`);
    await page.getByRole('link', { name: 'Pat Kay', exact: true }).waitFor();

    // An unknown owner or contact gets the not-found views, not an error page.
    await page.goto(`${base}/runclubs/999999/contacts/add`);
    await page.getByRole('heading', { name: 'Run Club not found' }).waitFor();
    await page.goto(`${base}/contacts/999999`);
    await page.getByRole('heading', { name: 'Contact not found' }).waitFor();
    await expect(page.getByRole('link', { name: 'Return Back' }).getAttribute('href')).resolves.toBe('/');
    suite.watched.assertClean({ expectedHttpStatuses: [404] });
  });

  it('uploads two images, shows them, deletes one (row and bytes), and adds payments with an exact total', async () => {
    const brand = await apiAs<{ id: number }>(page, base, 'POST', '/api/brands', { brandName: 'Harbour Hydration' });
    // Files and payments are tabs of the detail page, with their counts.
    await page.goto(`${base}/brands/${brand.id}?tab=files`);
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Upload Files' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Choose files').setInputFiles([
      { name: 'start.png', mimeType: 'image/png', buffer: PNG },
      { name: 'finish.png', mimeType: 'image/png', buffer: PNG },
    ]);
    await dialog.getByRole('button', { name: 'Upload 2 Files' }).click();
    await expectToast(page, 'Files uploaded successfully');
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('img', { name: 'start.png' }).waitFor();
    await page.getByRole('tab', { name: 'Files (2)' }).waitFor();
    // The thumbnails really load through the authenticated content route.
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('.attachments-thumb img')).every((img) => (img as HTMLImageElement).naturalWidth > 0),
    );
    expect(readdirSync(suite.server.uploadDir).filter((name) => !name.startsWith('.'))).toHaveLength(2);

    await confirmDelete(
      page,
      page.getByRole('button', { name: 'Delete start.png', includeHidden: true }),
      'Are you sure you want to delete start.png?',
    );
    await expectToast(page, 'File deleted successfully');
    await page.getByRole('tab', { name: 'Files (1)' }).waitFor();
    await expect(page.getByRole('img', { name: 'finish.png' }).isVisible()).resolves.toBe(true);
    expect(readdirSync(suite.server.uploadDir).filter((name) => !name.startsWith('.'))).toHaveLength(1);

    await page.getByRole('tab', { name: 'Payments (0)' }).click();
    for (const [description, amount] of [
      ['Spring banner', '0.10'],
      ['Newsletter slot', '0.20'],
    ]) {
      await page.getByRole('button', { name: 'Add Payment' }).click();
      const paymentDialog = page.getByRole('dialog');
      await paymentDialog.getByLabel('Description').fill(description!);
      await paymentDialog.getByLabel('Amount').fill(amount!);
      await paymentDialog.getByRole('button', { name: 'Add Payment' }).click();
      await expectToast(page, 'Payment added successfully');
      await paymentDialog.waitFor({ state: 'detached' });
    }
    await page.getByRole('tab', { name: 'Payments (2)' }).waitFor();
    await expect(page.getByTestId('payments-total').textContent()).resolves.toBe('$0.30');
    const stored = await apiAs<{ totalAdvertisingSpend: string }>(page, base, 'GET', `/api/brands/${brand.id}`);
    expect(stored.totalAdvertisingSpend).toBe('0.30');
    suite.watched.assertClean();
  });
});
