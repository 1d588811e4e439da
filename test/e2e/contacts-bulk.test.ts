import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '@services/users/service.js';
import { FakeMailchimp } from '../fakes/mailchimp.js';
import { TEST_PASSWORD } from '../helpers/app.js';
import { apiAs, browserSuite, signIn, waitForHydration } from './harness.js';
import { cardTitles, confirmDelete, expectHeading, expectToast, openRecordsPage } from './records-steps.js';

interface Contact {
  id: number;
  firstName: string;
  mailchimpTags: string[];
}

describe('contacts directory bulk actions against the fake Mailchimp (real Chromium)', () => {
  let mc: FakeMailchimp;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    mc = await new FakeMailchimp().start();
    mc.addAudience('Runners Weekly', 'runners1');
    mc.addAudience('Race Directors', 'directors1');
    mc.addMember('runners1', { email_address: 'cy@stride.example', status: 'unsubscribed' });
  });
  afterAll(() => mc?.close());
  const suite = browserSuite({
    server: () => ({ env: { ...mc.env, HTTP_TIMEOUT_MS: '5000' } }),
    signedIn: { path: '/contacts', open: openRecordsPage, hydrated: true },
  });

  beforeAll(async () => {
    const api = <T>(method: string, url: string, body?: unknown) => apiAs<T>(suite.watched.page, suite.server.baseUrl, method, url, body);
    const brand = await api<{ id: number }>('POST', '/api/brands', { brandName: 'Stride Shoes' });
    const add = async (firstName: string, lastName: string, email?: string) => {
      const contact = await api<{ id: number }>('POST', '/api/contacts', {
        entityType: 'brand',
        entityId: brand.id,
        firstName,
        lastName,
        email,
      });
      ids[firstName] = contact.id;
    };
    await add('Ann', 'Able', 'ann@stride.example');
    await add('Bob', 'Baker', 'bob@stride.example');
    await add('Cy', 'Cole', 'cy@stride.example');
    await add('Dee', 'Drew');
    // More than a page (24) in all, so "select all N matching" reaches past the first page.
    for (let i = 1; i <= 24; i++) await add(`Zed${String(i).padStart(2, '0')}`, 'Filler');
  });

  const contact = (name: string) => apiAs<Contact>(suite.watched.page, suite.server.baseUrl, 'GET', `/api/contacts/${ids[name]}`);

  it('tags a shift-clicked range of contacts, then adds a selection to a Mailchimp audience and reports the outcome', async () => {
    const { page } = suite.watched;
    await page.goto(`${suite.server.baseUrl}/contacts?q=stride.example&sort=name&dir=asc`);
    await waitForHydration(page);
    await expectHeading(page, 'Contacts');
    expect(await cardTitles(page)).toEqual(['Ann Able', 'Bob Baker', 'Cy Cole']);

    await page.getByRole('checkbox', { name: 'Select Ann Able' }).click();
    await page.getByRole('checkbox', { name: 'Select Cy Cole' }).click({ modifiers: ['Shift'] });
    await page.getByText('3 selected').waitFor();
    expect(await page.getByRole('checkbox', { name: 'Select Bob Baker' }).isChecked()).toBe(true);

    await page.getByRole('button', { name: 'Add tag' }).click();
    const tagDialog = page.getByRole('dialog', { name: 'Add tag on 3 contacts' });
    await tagDialog.getByLabel('Tags (comma separated)').fill('spring-race, vip');
    await tagDialog.getByRole('button', { name: 'Add tag' }).click();
    await expectToast(page, 'Tags changed on 3 contacts');
    await tagDialog.waitFor({ state: 'detached' });
    expect((await contact('Ann')).mailchimpTags).toEqual(['spring-race', 'vip']);
    expect((await contact('Cy')).mailchimpTags).toEqual(['spring-race', 'vip']);
    // The selection is cleared once done.
    expect(await page.getByRole('region', { name: 'Selected records' }).count()).toBe(0);

    await page.getByRole('checkbox', { name: 'Select Ann Able' }).click();
    await page.getByRole('checkbox', { name: 'Select Cy Cole' }).click({ modifiers: ['Shift'] });
    await page.getByRole('button', { name: 'Remove tag' }).click();
    const removeDialog = page.getByRole('dialog', { name: 'Remove tag on 3 contacts' });
    await removeDialog.getByLabel('Tags (comma separated)').fill('VIP');
    await removeDialog.getByRole('button', { name: 'Remove tag' }).click();
    // The dialog closes once the change is saved (the toast's text is the same as the last one's).
    await removeDialog.waitFor({ state: 'detached' });
    await expectToast(page, 'Tags changed on 3 contacts');
    expect((await contact('Bob')).mailchimpTags).toEqual(['spring-race']);

    // Ann, Bob and Cy again; Cy unsubscribed from the audience long ago.
    await page.getByRole('checkbox', { name: 'Select Ann Able' }).click();
    await page.getByRole('checkbox', { name: 'Select Cy Cole' }).click({ modifiers: ['Shift'] });
    await page.getByRole('button', { name: 'Add to Mailchimp audience' }).click();
    const audienceDialog = page.getByRole('dialog', { name: 'Add 3 contacts to a Mailchimp audience' });
    const audience = audienceDialog.getByLabel('Audience');
    await audienceDialog.getByRole('option', { name: 'Runners Weekly' }).waitFor({ state: 'attached' });
    await audience.selectOption({ label: 'Runners Weekly' });
    await audienceDialog.getByRole('button', { name: 'Add to audience' }).click();
    const report = audienceDialog.getByRole('status', { name: 'Mailchimp result' });
    await report.waitFor();
    expect(await report.textContent()).toMatch(/^Added 2, updated 0, skipped 1 .*failed 0\.$/);
    await expectToast(page, 'Mailchimp: 2 added, 0 updated, 1 skipped, 0 failed');
    expect(mc.member('runners1', 'ann@stride.example')).toMatchObject({ status: 'subscribed', tags: ['spring-race'] });
    expect(mc.member('runners1', 'bob@stride.example')?.status).toBe('subscribed');
    expect(mc.member('runners1', 'cy@stride.example')?.status).toBe('unsubscribed');
    await audienceDialog.getByRole('button', { name: 'Close' }).click();
    await audienceDialog.waitFor({ state: 'detached' });
    expect(await page.getByRole('region', { name: 'Selected records' }).count()).toBe(0);
    suite.watched.assertClean();
  });

  it('names each address Mailchimp refused', async () => {
    const { page } = suite.watched;
    await suite.server.database.db('contacts').where({ id: ids.Bob }).update({ email: 'bob@localhost' });
    await page.goto(`${suite.server.baseUrl}/contacts?q=bob&sort=name&dir=asc`);
    await waitForHydration(page);
    await page.getByRole('checkbox', { name: 'Select Bob Baker' }).click();
    await page.getByRole('button', { name: 'Add to Mailchimp audience' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add 1 contact to a Mailchimp audience' });
    await dialog.getByRole('option', { name: 'Race Directors' }).waitFor({ state: 'attached' });
    await dialog.getByLabel('Audience').selectOption({ label: 'Race Directors' });
    await dialog.getByRole('button', { name: 'Add to audience' }).click();
    await dialog.getByRole('status', { name: 'Mailchimp result' }).waitFor();
    expect(await dialog.getByRole('list', { name: 'Failed' }).textContent()).toBe(
      'bob@localhost: Mailchimp: Invalid Resource: email_address: This value should be a valid email.',
    );
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    suite.watched.assertClean();
  });

  it('selects all matching contacts across pages in the table, and deletes a page of them after one confirmation', async () => {
    const { page } = suite.watched;
    await page.goto(`${suite.server.baseUrl}/contacts?sort=name&dir=asc`);
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Table' }).click();
    await page.getByRole('table', { name: 'Contacts' }).waitFor();
    await page.getByText('28 results').waitFor();

    await page.getByRole('checkbox', { name: 'Select all on this page' }).click();
    await page.getByText('24 selected').waitFor();
    await page.getByRole('button', { name: 'Select all 28 matching' }).click();
    await page.getByText('All 28 matching selected').waitFor();
    await page.getByRole('button', { name: 'Add tag' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add tag on 28 contacts' });
    await dialog.getByLabel('Tags (comma separated)').fill('season-2027');
    await dialog.getByRole('button', { name: 'Add tag' }).click();
    await expectToast(page, 'Tags changed on 28 contacts');
    // The last contact of the second page got it too.
    expect((await contact('Dee')).mailchimpTags).toEqual(['season-2027']);
    expect((await contact('Zed24')).mailchimpTags).toEqual(['season-2027']);

    await page.goto(`${suite.server.baseUrl}/contacts?q=filler`);
    await waitForHydration(page);
    await page.getByRole('checkbox', { name: 'Select all on this page' }).click();
    await confirmDelete(
      page,
      page.getByRole('button', { name: 'Delete selected' }),
      'Are you sure you want to delete 24 contacts? This cannot be undone.',
    );
    await expectToast(page, '24 contacts deleted');
    await page.getByRole('heading', { name: 'No contacts found' }).waitFor();
    const left = await apiAs<{ total: number }>(page, suite.server.baseUrl, 'GET', '/api/contacts');
    expect(left.total).toBe(4);
    suite.watched.assertClean();
  });

  it('shows a viewer the selection and Export selected, but no write actions', async () => {
    await createUser(suite.server.ctx, {
      email: 'viewer@example.org',
      password: TEST_PASSWORD,
      firstName: 'Vi',
      lastName: 'Ewer',
      role: 'viewer',
    });
    const viewer = await openRecordsPage(suite.browser);
    const { page } = viewer;
    await signIn(page, suite.server.baseUrl, { email: 'viewer@example.org', password: TEST_PASSWORD }, '/contacts');
    await waitForHydration(page);
    await page.getByRole('checkbox', { name: 'Select Ann Able' }).click();
    await page.getByText('1 selected').waitFor();
    const exportLink = page.getByRole('link', { name: 'Export selected' });
    expect(await exportLink.getAttribute('href')).toBe(`/api/export/contacts?ids=${ids.Ann}`);
    for (const name of ['Delete selected', 'Add tag', 'Remove tag', 'Add to Mailchimp audience'])
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    viewer.assertClean();
    await viewer.close();
  });
  it('keeps the bulk bar on a phone screen without sideways scrolling', async () => {
    const phone = await openRecordsPage(suite.browser, { width: 390, height: 844 });
    const { page } = phone;
    await signIn(page, suite.server.baseUrl, { email: 'staff@example.org', password: TEST_PASSWORD }, '/contacts');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Cards' }).click();
    await page.getByRole('checkbox', { name: 'Select Ann Able' }).click();
    await page.getByRole('button', { name: 'Add to Mailchimp audience' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    phone.assertClean();
    await phone.close();
  });
});
