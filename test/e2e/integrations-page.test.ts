import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeMailchimp } from '../fakes/mailchimp.js';
import { sampleEvents, seedMailchimp } from '../fakes/sample-data.js';
import { FakeWordPress } from '../fakes/wordpress.js';
import { browserSuite, createStaffUser, openPage, signIn, waitForHydration } from './harness.js';

describe('the Integrations page against the fake WordPress and Mailchimp (real Chromium)', () => {
  let wp: FakeWordPress;
  let mc: FakeMailchimp;

  beforeAll(async () => {
    wp = await new FakeWordPress({ posts: { events: sampleEvents(150) } }).start();
    mc = await new FakeMailchimp().start();
    seedMailchimp(mc);
  });
  afterAll(async () => {
    await wp?.close();
    await mc?.close();
  });
  const suite = browserSuite({
    server: () => ({
      env: {
        ...wp.env,
        ...mc.env,
        HTTP_TIMEOUT_MS: '5000',
      },
    }),
  });

  it('tests the content website, syncs events, and adds a member to an audience', async () => {
    const watched = await openPage(suite.browser);
    const { page } = watched;
    const toast = page.getByTestId('toast');
    await signIn(page, suite.server.baseUrl, await createStaffUser(suite.server), '/integrations');
    await waitForHydration(page);

    await expect(page.getByRole('heading', { name: 'Integrations', level: 1 }).isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('integrations-overview').textContent()).resolves.toContain(wp.url);
    await expect(page.getByTestId('wordpress-status').textContent()).resolves.toBe('Not tested');
    const syncEvents = page.getByRole('button', { name: 'Sync Events' });
    await expect(syncEvents.isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('sync-card-events').textContent()).resolves.toContain('Never synced');

    // A wrong application password fails the test, and the sync buttons stay disabled.
    const realPassword = wp.appPassword;
    wp.appPassword = 'changed on the site';
    await page.getByRole('tabpanel', { name: 'Content Website' }).getByRole('button', { name: 'Test Connection' }).click();
    await toast.filter({ hasText: 'Connection Failed' }).waitFor();
    await expect(toast.textContent()).resolves.toContain('WordPress rejected the username or application password');
    await expect(page.getByTestId('wordpress-status').textContent()).resolves.toBe('Failed');
    await expect(syncEvents.isDisabled()).resolves.toBe(true);

    wp.appPassword = realPassword;
    await page.getByRole('tabpanel', { name: 'Content Website' }).getByRole('button', { name: 'Test Connection' }).click();
    await toast.filter({ hasText: 'Connection Successful' }).waitFor();
    await expect(page.getByTestId('wordpress-status').textContent()).resolves.toBe('Connected');
    await expect(page.getByTestId('overview-wordpress-status').textContent()).resolves.toBe('Connected');
    await page.getByTestId('site-info').waitFor();
    await expect(page.getByTestId('site-info').textContent()).resolves.toContain('Pacer & Friends');
    await expect(page.getByTestId('site-info').textContent()).resolves.toContain('Runners’ news – races, clubs & pros');

    await expect(syncEvents.isDisabled()).resolves.toBe(false);
    // WordPress holds its answers until the page has shown the sync running.
    const release = wp.holdAnswers();
    try {
      await syncEvents.click();
      await page.getByRole('button', { name: 'Sync Events' }).filter({ hasText: 'Syncing...' }).waitFor();
    } finally {
      release();
    }
    await toast.filter({ hasText: 'Sync Successful' }).waitFor();
    const card = page.getByTestId('sync-card-events');
    await expect(card.getByTestId('sync-result').textContent()).resolves.toMatch(/149 created.*0 updated.*\d+ errors/);
    // Some of the site's posts could not be used, so the run did not simply succeed (issue 29).
    await card.getByTestId('sync-last-run').filter({ hasText: 'Completed with errors' }).waitFor();
    await expect(card.getByTestId('sync-last-run').textContent()).resolves.toContain('By staff@example.org');
    expect(await suite.server.database.db('events').count({ n: '*' }).first()).toEqual({ n: 149 });

    // The email-marketing tab.
    await page.getByRole('tab', { name: 'Email Marketing' }).click();
    await page.waitForURL(`${suite.server.baseUrl}/integrations?tab=email`);
    await expect(page.getByTestId('mailchimp-status').textContent()).resolves.toBe('Not tested');
    const emailPanel = page.getByRole('tabpanel', { name: 'Email Marketing' });
    await emailPanel.getByRole('button', { name: 'Test Connection' }).click();
    await toast.filter({ hasText: 'Connection Successful' }).waitFor();
    await expect(page.getByTestId('account-info').textContent()).resolves.toContain('Pacer Running Co');
    await page.getByTestId('audience-list').waitFor();
    await expect(page.getByTestId('audience-list').textContent()).resolves.toContain('Runners Weekly25 members');

    await page.getByRole('button', { name: 'Add Member' }).click();
    await toast.filter({ hasText: 'Missing Information' }).waitFor();
    await expect(toast.textContent()).resolves.toContain('Please select an audience and provide an email address');

    await page.getByTestId('add-member-form').getByLabel('Audience').selectOption('runners1');
    await page.getByRole('textbox', { name: 'Email' }).fill('new.runner@example.org');
    await page.getByLabel('First name').fill('Nat');
    await page.getByLabel('Tags').fill('Race Director, , VIP ');
    await page.getByRole('button', { name: 'Add Member' }).click();
    await toast.filter({ hasText: 'Member Added Successfully' }).waitFor();
    expect(mc.member('runners1', 'new.runner@example.org')).toMatchObject({
      status: 'subscribed',
      merge_fields: { FNAME: 'Nat' },
      tags: ['Race Director', 'VIP'],
    });

    await page.getByTestId('add-member-form').getByLabel('Audience').selectOption('runners1');
    await page.getByRole('textbox', { name: 'Email' }).fill('not-an-email');
    await page.getByRole('button', { name: 'Add Member' }).click();
    await toast.filter({ hasText: 'Failed to Add Member' }).waitFor();
    await expect(toast.textContent()).resolves.toContain('Enter a valid email address');

    // Switching back keeps the content-website result.
    await page.getByRole('tab', { name: 'Content Website' }).click();
    await expect(page.getByTestId('wordpress-status').textContent()).resolves.toBe('Connected');

    watched.assertClean({ expectedHttpStatuses: [400] });
    await watched.close();
  });
});
