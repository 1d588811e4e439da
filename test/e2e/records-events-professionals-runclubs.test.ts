import { describe, expect, it } from 'vitest';
import { encodeTimestamp } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import { updateRecordRows } from '@services/records/writes.js';
import type { Event, Professional, RunClub, WordpressUrl } from '@shared/schemas/records.js';
import { apiAs, browserSuite, waitForHydration } from './harness.js';
import { cardTitles, confirmDelete, expectHeading, expectToast, openRecordsPage, search } from './records-steps.js';

describe('events, professionals and run clubs: find, edit and delete through the UI (real Chromium)', () => {
  const suite = browserSuite({
    server: { env: { PUBLIC_SITE_URL: 'https://run.example.org', WORDPRESS_URL: 'https://cms.example.org' } },
    signedIn: { path: '/events', open: openRecordsPage, hydrated: true },
  });

  /** What a sync from the content site does: give the record a wordpress id and a sync time. */
  async function markSynced(type: 'event' | 'professional', id: number, column: string, wordpressId: number) {
    const values = { [column]: wordpressId, wordpressLastSync: encodeTimestamp(new Date('2026-11-20T08:30:00Z')) };
    await withTransaction({ db: suite.server.database.db }, (trx) => updateRecordRows(trx, type, [id], values));
  }

  it('events (created through the API: there is no add screen)', async () => {
    const { page } = suite.watched;
    const base = suite.server.baseUrl;
    await expectHeading(page, 'Events');
    await expectHeading(page, 'No events found');
    await page.getByText(/imported from the content website/).waitFor();
    await expect(page.getByRole('link', { name: 'Bulk Import' }).getAttribute('href')).resolves.toBe('/events/bulk-import');

    const marathon = await apiAs<Event>(page, base, 'POST', '/api/events', {
      eventName: 'Harbour Marathon',
      featuredRace: true,
      eventStartDate: '2027-03-14',
      locationState: 'NSW',
      runType: ['marathon', 'half marathon'],
    });
    await apiAs<Event>(page, base, 'POST', '/api/events', { eventName: 'Bush Trail Run', locationState: 'VIC' });
    const synced = await apiAs<Event>(page, base, 'POST', '/api/events', {
      eventName: 'City Ten',
      websiteUrl: 'https://cityten.example.org',
    });
    await markSynced('event', synced.id, 'wordpressEventId', 4321);

    await page.reload();
    await waitForHydration(page);
    await expect.poll(() => cardTitles(page)).toEqual(expect.arrayContaining(['Harbour Marathon', 'Bush Trail Run', 'City Ten']));
    const marathonCard = page.getByTestId('event-card').filter({ hasText: 'Harbour Marathon' });
    await expect(marathonCard.textContent()).resolves.toContain('Featured');
    await expect(marathonCard.textContent()).resolves.toContain('14 Mar 2027');
    const bushCard = page.getByTestId('event-card').filter({ hasText: 'Bush Trail Run' });
    await expect(bushCard.textContent()).resolves.toContain('Active');
    await expect(bushCard.textContent()).resolves.toContain('Date TBD');

    // Filter and search live in the URL together, and a reload renders the same list on the suite.server.
    await page.getByLabel('Show').selectOption('featured');
    await page.waitForURL((url) => url.searchParams.get('filter') === 'featured');
    await expect.poll(() => cardTitles(page)).toEqual(['Harbour Marathon']);
    await search(page, 'harbour');
    expect(new URL(page.url()).searchParams.get('filter')).toBe('featured');
    await page.reload();
    await waitForHydration(page);
    await expect.poll(() => cardTitles(page)).toEqual(['Harbour Marathon']);
    await expect(page.getByLabel('Show').inputValue()).resolves.toBe('featured');

    // Clicking the card opens the detail page with its tabs and sidebar.
    await page.getByRole('link', { name: 'Harbour Marathon', exact: true }).click();
    await page.waitForURL(`${base}/events/${marathon.id}`);
    await expectHeading(page, 'Harbour Marathon');
    await page.getByRole('tab', { name: 'Contacts (0)' }).waitFor();
    await page.getByText('marathon, half marathon').waitFor();
    const sidebar = page.getByRole('complementary', { name: 'Summary' });
    await expect(sidebar.textContent()).resolves.toContain('Featured');
    await expect(sidebar.textContent()).resolves.toContain('Not synced');
    await expect(sidebar.textContent()).resolves.toContain('Never synced');
    await page.getByRole('tab', { name: 'Marketing' }).click();
    await page.getByText('Never included').waitFor();
    await page.getByText(/integration for this screen is not yet done/).waitFor();

    // Edit: the schema's message, then a save that leads back to the detail page.
    await page.getByRole('link', { name: 'Edit Event' }).click();
    await expectHeading(page, 'Edit Event');
    // Run types are picked from the known choices; the API stored 'half marathon' as its slug.
    const runTypes = page.getByRole('group', { name: 'Run types' });
    await expect(runTypes.getByRole('checkbox', { name: 'Marathon', exact: true }).isChecked()).resolves.toBe(true);
    await expect(runTypes.getByRole('checkbox', { name: 'Half marathon' }).isChecked()).resolves.toBe(true);
    await expect(runTypes.getByRole('checkbox', { name: '10K' }).isChecked()).resolves.toBe(false);
    await page.getByLabel('Event name').fill('   ');
    await page.getByRole('button', { name: 'Update Event' }).click();
    await page.getByText('Event name is required').waitFor();
    await page.getByLabel('Event name').fill('Harbour Marathon 2027');
    await page.getByLabel('Featured race').uncheck();
    await page.getByRole('button', { name: 'Update Event' }).click();
    await expectToast(page, 'Event updated successfully');
    await page.waitForURL(`${base}/events/${marathon.id}`);
    await expectHeading(page, 'Harbour Marathon 2027');
    await expect(page.getByRole('complementary', { name: 'Summary' }).textContent()).resolves.toContain('Regular');

    await confirmDelete(
      page,
      page.getByRole('button', { name: 'Delete' }),
      'Are you sure you want to delete this event? This action cannot be undone.',
    );
    await expectToast(page, 'Event deleted successfully');
    await page.waitForURL(`${base}/events`);
    await expect.poll(() => cardTitles(page)).toEqual(expect.arrayContaining(['Bush Trail Run', 'City Ten']));
    expect(await cardTitles(page)).not.toContain('Harbour Marathon 2027');

    // A synced event links to its public page, its website and the content site's admin.
    const { wordpressUrl } = await apiAs<WordpressUrl>(page, base, 'GET', `/api/events/${synced.id}/wordpress-url`);
    await page.goto(`${base}/events/${synced.id}`);
    await waitForHydration(page);
    await expect(page.getByRole('link', { name: /View Event Page/ }).getAttribute('href')).resolves.toBe(wordpressUrl);
    await expect(page.getByRole('link', { name: /Visit Website/ }).getAttribute('href')).resolves.toBe('https://cityten.example.org/');
    await expect(page.getByRole('link', { name: /Edit in WordPress/ }).getAttribute('href')).resolves.toBe(
      'https://cms.example.org/wp-admin/post.php?post=4321&action=edit',
    );
    await expect(page.getByRole('complementary', { name: 'Summary' }).textContent()).resolves.toContain('4321');

    await page.goto(`${base}/events/0`);
    await expectHeading(page, 'Event not found');
    await page.goto(`${base}/events/${marathon.id}/edit`);
    await expectHeading(page, 'Event not found');
    await page.getByText('The event you are trying to edit does not exist.').waitFor();
    await page.getByRole('link', { name: 'Back to Events' }).click();
    await page.waitForURL(`${base}/events`);
    suite.watched.assertClean({ expectedHttpStatuses: [404] });
  });

  it('professionals', async () => {
    const { page } = suite.watched;
    const base = suite.server.baseUrl;
    await page.goto(`${base}/professionals`);
    await waitForHydration(page);
    await expectHeading(page, 'Professionals');
    await expectHeading(page, 'No professionals found');

    await page.getByRole('link', { name: 'Add Unpublished Professional' }).click();
    await expectHeading(page, 'Add Unpublished Professional');
    await page.getByRole('button', { name: 'Create Professional' }).click();
    await page.getByText('Business name is required').waitFor();
    await page.getByLabel('Business name').fill('Peak Physio');
    await page.getByLabel('Profession type').selectOption('physiotherapist');
    await page.getByLabel('State').selectOption('VIC');
    await page.getByLabel('Subscription status').selectOption('pending');
    await page.getByLabel('Specializations').fill('running injuries, , gait analysis');
    await page.getByRole('button', { name: 'Create Professional' }).click();
    await expectToast(page, 'Professional added successfully');
    await page.waitForURL(/\/professionals\/\d+$/);
    await expectHeading(page, 'Peak Physio');
    const header = page.locator('.records-page-header');
    await expect(header.textContent()).resolves.toContain('Draft');
    await expect(header.textContent()).resolves.toContain('Pending');
    await page.getByText('running injuries, gait analysis').waitFor();

    const published = await apiAs<Professional>(page, base, 'POST', '/api/professionals', {
      businessName: 'Coastal Coaching',
      professionType: 'coach',
    });
    await markSynced('professional', published.id, 'wordpressProfessionalId', 77);

    await page.getByRole('link', { name: 'Back to Professionals' }).click();
    await page.waitForURL(`${base}/professionals`);
    await search(page, 'coach');
    await expect.poll(() => cardTitles(page)).toEqual(['Coastal Coaching']);
    const publishedCard = page.getByTestId('professional-card');
    await expect(publishedCard.textContent()).resolves.toContain('Published');
    // Published professionals belong to the content site: no delete button.
    await expect(page.getByRole('button', { name: 'Delete Coastal Coaching' }).count()).resolves.toBe(0);

    await search(page, 'physio');
    await expect.poll(() => cardTitles(page)).toEqual(['Peak Physio']);
    await page.getByRole('link', { name: 'Edit Peak Physio' }).click();
    await expectHeading(page, 'Edit Professional');
    await expect(page.getByLabel('Subscription status').inputValue()).resolves.toBe('pending');
    await page.getByLabel('Business name').fill('Peak Physio & Rehab');
    await page.getByRole('button', { name: 'Update Professional' }).click();
    await expectToast(page, 'Professional updated successfully');
    await expectHeading(page, 'Peak Physio & Rehab');
    const detailUrl = page.url();

    await page.getByRole('link', { name: 'Back to Professionals' }).click();
    await search(page, 'rehab');
    await confirmDelete(
      page,
      page.getByRole('button', { name: 'Delete Peak Physio & Rehab', includeHidden: true }),
      'Are you sure you want to delete this professional?',
    );
    await expectToast(page, 'Professional deleted successfully');
    await expectHeading(page, 'No professionals found');

    await page.goto(detailUrl);
    await expectHeading(page, 'Professional not found');
    suite.watched.assertClean({ expectedHttpStatuses: [404] });
  });

  it('run clubs (created through the API: there is no add screen)', async () => {
    const { page } = suite.watched;
    const base = suite.server.baseUrl;
    const harbour = await apiAs<RunClub>(page, base, 'POST', '/api/runclubs', {
      clubName: 'Harbour Runners',
      clubType: ['road', 'social'],
      locationState: 'NSW',
      meetingTimes: ['Tue 6am', 'Sat 7am'],
    });
    await apiAs<RunClub>(page, base, 'POST', '/api/runclubs', { clubName: 'Ridge Trail Club', clubType: ['trail'], locationState: 'QLD' });
    await suite.server.database.db('run_club_schedules').insert({
      clubId: harbour.id,
      title: 'Saturday long run',
      dayOfWeek: 'Saturday',
      startTime: '07:00',
      isRecurring: true,
      createdAt: encodeTimestamp(new Date()),
    });

    await page.goto(`${base}/runclubs`);
    await waitForHydration(page);
    await expectHeading(page, 'Run Clubs');
    await expect.poll(() => cardTitles(page)).toEqual(expect.arrayContaining(['Harbour Runners', 'Ridge Trail Club']));
    await expect(page.getByLabel('Club type').locator('option').allTextContents()).resolves.toEqual([
      'All types',
      'Trail',
      'Road',
      'Track',
      'Mixed',
    ]);
    await page.getByLabel('Club type').selectOption('trail');
    await page.waitForURL((url) => url.searchParams.get('type') === 'trail');
    await expect.poll(() => cardTitles(page)).toEqual(['Ridge Trail Club']);
    await page.getByLabel('Club type').selectOption('all');
    await search(page, 'harbour');
    await expect.poll(() => cardTitles(page)).toEqual(['Harbour Runners']);

    await page.getByRole('link', { name: 'Harbour Runners', exact: true }).click();
    await page.waitForURL(`${base}/runclubs/${harbour.id}`);
    await expectHeading(page, 'Harbour Runners');
    await expectHeading(page, 'Schedules');
    await page.getByText('Saturday long run').waitFor();
    await expectHeading(page, 'Run Club Info');
    await expect(page.getByRole('complementary', { name: 'Summary' }).textContent()).resolves.toContain('Not synced');

    await page.getByRole('link', { name: 'Edit Run Club' }).click();
    await expectHeading(page, 'Edit Run Club');
    await expect(page.getByRole('checkbox', { name: 'Social' }).isChecked()).resolves.toBe(true);
    await page.getByLabel('Membership count').fill('lots');
    await page.getByRole('button', { name: 'Update Run Club' }).click();
    await page.getByText('Membership count must be a whole number').waitFor();
    await page.getByLabel('Membership count').fill('120');
    await page.getByRole('checkbox', { name: 'Trail' }).check();
    await page.getByRole('button', { name: 'Update Run Club' }).click();
    await expectToast(page, 'Run club updated successfully');
    await page.waitForURL(`${base}/runclubs/${harbour.id}`);
    await page.getByText('120', { exact: true }).waitFor();
    await page
      .getByText('Road, Social, Trail')
      .or(page.getByText('Trail, Road, Social'))
      .or(page.getByText('Road, Trail, Social'))
      .first()
      .waitFor();

    await confirmDelete(
      page,
      page.getByRole('button', { name: 'Delete' }),
      'Are you sure you want to delete this run club? This action cannot be undone.',
    );
    await expectToast(page, 'Run club deleted successfully');
    await page.waitForURL(`${base}/runclubs`);
    await expect.poll(() => cardTitles(page)).toEqual(['Ridge Trail Club']);
    await page.goto(`${base}/runclubs/${harbour.id}`);
    await expectHeading(page, 'Run Club not found');
    suite.watched.assertClean({ expectedHttpStatuses: [404] });
  });
});
