import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeMailchimp } from '../fakes/mailchimp.js';
import { sampleEvents, sampleProfessionals, seedMailchimp } from '../fakes/sample-data.js';
import { FakeWordPress } from '../fakes/wordpress.js';
import { apiAs, browserSuite, waitForHydration } from './harness.js';

/**
 * Issue 14 in the browser: a sync started from its card runs as a job whose progress survives a reload and a visit
 * elsewhere, the Jobs page lists it with its result, and the newsletter form pushes contacts as a job (dry run,
 * then for real), against the fake WordPress and Mailchimp that speak their real protocols.
 */
describe('jobs in the browser: sync cards, the Jobs page and the newsletter form (real Chromium)', () => {
  let wp: FakeWordPress;
  let mc: FakeMailchimp;

  beforeAll(async () => {
    wp = await new FakeWordPress({ posts: { events: sampleEvents(150), professionals: sampleProfessionals(140) } }).start();
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
        // Answers are held back while the test looks: the client must not give up meanwhile.
        HTTP_TIMEOUT_MS: '120000',
      },
    }),
    signedIn: { path: '/integrations' },
  });

  it('syncs from the card with live progress that survives a reload and a visit elsewhere, then lists it on /jobs', async () => {
    const { page } = suite.watched;
    const toast = page.getByTestId('toast');
    await waitForHydration(page);
    const websitePanel = page.getByRole('tabpanel', { name: 'Content Website' });
    await websitePanel.getByRole('button', { name: 'Test Connection' }).click();
    await toast.filter({ hasText: 'Connection Successful' }).waitFor();

    // WordPress holds its answers: the sync stays running while the page is reloaded and left.
    let release = wp.holdAnswers();
    try {
      await page.getByRole('button', { name: 'Sync Events' }).click();
      const card = page.getByTestId('sync-card-events');
      await card.getByTestId('job-progress').filter({ hasText: 'Reading posts' }).waitFor();
      await expect(page.getByRole('button', { name: 'Sync Events' }).textContent()).resolves.toBe('Syncing...');

      await page.reload();
      await waitForHydration(page);
      await card.getByTestId('job-progress').waitFor();
      await expect(page.getByRole('button', { name: 'Sync Events' }).isDisabled()).resolves.toBe(true);
      await expect(page.getByRole('button', { name: 'Sync Events' }).textContent()).resolves.toBe('Syncing...');

      // A second start while it runs (as another tab would send it) is the "already running" answer, no second sync.
      const second = await page.context().request.post(`${suite.server.baseUrl}/api/jobs`, {
        headers: { Origin: suite.server.baseUrl },
        data: { type: 'sync', params: { kind: 'events' } },
      });
      expect(second.status()).toBe(409);
      expect(((await second.json()) as { message: string }).message).toContain('already running');

      // The Jobs page shows it running, and a visit back to the card finds it again.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs' }).click();
      await page.waitForURL(`${suite.server.baseUrl}/jobs`);
      await page.getByRole('heading', { name: 'Jobs', level: 1 }).waitFor();
      const running = page.getByTestId('job-list').locator(':scope > li').first();
      await expect(running.getByTestId('job-state').textContent()).resolves.toBe('Running');
      await running.getByTestId('job-progress').waitFor();
      await expect(running.textContent()).resolves.toContain('By staff@example.org');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Integrations' }).click();
      await page.waitForURL(`${suite.server.baseUrl}/integrations`);
      await card.getByTestId('job-progress').waitFor();

      // Only the first page is answered; the second waits until the bar has been seen counting items against the
      // total (a page answered after a fixed delay was missed once between two reads of a busy machine).
      await expect.poll(() => wp.requests.filter((path) => path.includes('/wp/v2/events')).length, { timeout: 30_000 }).toBe(1);
      release();
      release = wp.holdAnswers();
      await card.getByTestId('job-progress-counts').filter({ hasText: '100 / 150 items' }).waitFor({ timeout: 60_000 });
    } finally {
      release();
    }
    await toast.filter({ hasText: 'Sync Successful' }).waitFor({ timeout: 60_000 });
    const card = page.getByTestId('sync-card-events');
    await expect(card.getByTestId('sync-result').textContent()).resolves.toMatch(/149 created.*0 updated.*\d+ errors/);
    await card.getByTestId('sync-last-run').filter({ hasText: 'Completed with errors' }).waitFor();
    await expect(card.getByTestId('job-progress').count()).resolves.toBe(0);
    expect(await suite.server.database.db('events').count({ n: '*' }).first()).toEqual({ n: 149 });
    expect(await suite.server.database.db('jobs').where({ type: 'sync' }).count({ n: '*' }).first()).toEqual({ n: 1 });

    // The Jobs page lists the finished sync with its counts, filtered by type and state in the URL.
    await page.goto(`${suite.server.baseUrl}/jobs?type=sync&state=succeeded`);
    await waitForHydration(page);
    const listed = page.getByTestId('job-list').locator(':scope > li');
    await expect(listed.count()).resolves.toBe(1);
    await expect(listed.getByTestId('job-counts').textContent()).resolves.toMatch(/^149 created, 0 updated, \d+ errors$/);
    await expect(listed.textContent()).resolves.toContain('Events · changes only');
    await listed.locator('.job-summary').click();
    await expect(listed.getByTestId('sync-result').textContent()).resolves.toMatch(/149 created/);
    await page.goto(`${suite.server.baseUrl}/jobs?type=import`);
    await waitForHydration(page);
    await page.getByText('No jobs found').waitFor();
    suite.watched.assertClean();
  }, 180_000);

  it('pushes contacts from the newsletter form as a job: a dry run, then for real, with the CLI summary', async () => {
    const { page } = suite.watched;
    const toast = page.getByTestId('toast');
    const event = (await suite.server.database.db('events').orderBy('id').first('id')) as { id: number };
    for (const [firstName, email, tags] of [
      ['Ada', 'ada@example.org', ['VIP']],
      ['Bo', 'bo@example.org', ['VIP']],
      ['Cy', 'cy@example.org', []],
    ] as const)
      await apiAs(page, suite.server.baseUrl, 'POST', '/api/contacts', {
        firstName,
        lastName: 'Runner',
        email,
        mailchimpTags: tags,
        entityType: 'event',
        entityId: event.id,
      });

    await page.goto(`${suite.server.baseUrl}/integrations?tab=email`);
    await waitForHydration(page);
    const panel = page.getByRole('tabpanel', { name: 'Email Marketing' });
    await panel.getByRole('button', { name: 'Test Connection' }).click();
    await page.getByTestId('audience-list').waitFor();
    const form = page.getByTestId('push-form');
    await form.getByLabel('Audience').selectOption('runners1');
    await form.getByLabel('Contacts of').selectOption('event');
    await form.getByLabel('Only with tag').fill('VIP');
    await expect(form.getByLabel(/Dry run/).isChecked()).resolves.toBe(true);
    await form.getByRole('button', { name: 'Push Contacts' }).click();
    await toast.filter({ hasText: 'Newsletter push finished' }).waitFor();
    await expect(form.getByTestId('push-summary').textContent()).resolves.toBe('Dry run: 2 contacts would be pushed to audience runners1');
    expect(mc.member('runners1', 'ada@example.org')).toBeUndefined();

    // For real, with Mailchimp holding its answers until the progress has been seen.
    await form.getByLabel(/Dry run/).uncheck();
    await form.getByLabel('Only with tag').fill('');
    const release = mc.holdAnswers();
    try {
      await form.getByRole('button', { name: 'Push Contacts' }).click();
      await form.getByTestId('job-progress').waitFor();
      await expect(form.getByRole('button', { name: 'Pushing...' }).isDisabled()).resolves.toBe(true);
    } finally {
      release();
    }
    await form
      .getByTestId('push-summary')
      .filter({ hasText: 'Pushed 3 contacts to audience runners1: 3 added, 0 updated, 0 unsubscribed (kept unsubscribed), 0 failed' })
      .waitFor({ timeout: 60_000 });
    expect(mc.member('runners1', 'ada@example.org')).toMatchObject({ status: 'subscribed', tags: ['VIP'] });
    expect(mc.member('runners1', 'cy@example.org')).toMatchObject({ status: 'subscribed' });

    // Both pushes are on the Jobs page with the same summary.
    await page.goto(`${suite.server.baseUrl}/jobs?type=newsletter`);
    await waitForHydration(page);
    const listed = page.getByTestId('job-list').locator(':scope > li');
    await expect(listed.count()).resolves.toBe(2);
    await expect(listed.nth(0).getByTestId('job-counts').textContent()).resolves.toBe('3 added, 0 updated, 0 failed');
    await expect(listed.nth(1).textContent()).resolves.toContain('audience runners1 · Events · tag VIP · dry run');
    await listed.nth(1).locator('.job-summary').click();
    await expect(listed.nth(1).getByTestId('push-summary').textContent()).resolves.toBe(
      'Dry run: 2 contacts would be pushed to audience runners1',
    );

    // On a phone neither the push form nor the opened jobs scroll sideways.
    await page.setViewportSize({ width: 390, height: 800 });
    const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await sideways()).toBe(0);
    await page.goto(`${suite.server.baseUrl}/integrations?tab=email`);
    await waitForHydration(page);
    await page.getByTestId('push-form').waitFor();
    expect(await sideways()).toBe(0);
    suite.watched.assertClean();
  }, 120_000);

  it('cancels a running sync from its card: it stops before the next page and the Jobs page says cancelled', async () => {
    const { page } = suite.watched;
    await page.setViewportSize({ width: 1280, height: 800 });
    const toast = page.getByTestId('toast');
    await page.goto(`${suite.server.baseUrl}/integrations`);
    await waitForHydration(page);
    await page.getByRole('tabpanel', { name: 'Content Website' }).getByRole('button', { name: 'Test Connection' }).click();
    await toast.filter({ hasText: 'Connection Successful' }).waitFor();
    const card = page.getByTestId('sync-card-professionals');
    const release = wp.holdAnswers();
    try {
      await page.getByRole('button', { name: 'Sync Professionals' }).click();
      await card.getByTestId('job-progress').waitFor();
      await card.getByRole('button', { name: 'Cancel' }).click();
      await card.getByTestId('job-progress').filter({ hasText: 'stopping after the current batch' }).waitFor();
    } finally {
      release();
    }
    await toast.filter({ hasText: 'Sync cancelled' }).waitFor({ timeout: 60_000 });
    await expect(card.getByTestId('job-progress').count()).resolves.toBe(0);
    // The card's last run says cancelled, not failed, with what it wrote before it stopped.
    await card.getByTestId('sync-last-outcome').filter({ hasText: 'Cancelled' }).waitFor();
    await expect(card.getByTestId('sync-last-run').textContent()).resolves.toContain(
      'Sync cancelled: 0 created, 0 updated before it stopped',
    );
    expect(await suite.server.database.db('professionals').count({ n: '*' }).first()).toEqual({ n: 0 });

    await page.goto(`${suite.server.baseUrl}/jobs?type=sync&state=cancelled`);
    await waitForHydration(page);
    const listed = page.getByTestId('job-list').locator(':scope > li');
    await expect(listed.count()).resolves.toBe(1);
    await expect(listed.textContent()).resolves.toContain('Professionals · changes only');
    suite.watched.assertClean();
  }, 120_000);
});
