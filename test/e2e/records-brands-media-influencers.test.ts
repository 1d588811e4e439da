import { describe, expect, it } from 'vitest';
import { apiAs, browserSuite, waitForHydration } from './harness.js';
import { cardTitles, confirmDelete, expectHeading, expectToast, openRecordsPage, search } from './records-steps.js';

describe('brands, media and influencers: create, find, edit and delete through the UI (real Chromium)', () => {
  const suite = browserSuite({ signedIn: { path: '/brands', open: openRecordsPage, hydrated: true } });

  it('brands', async () => {
    const { page } = suite.watched;
    const base = suite.server.baseUrl;
    await expectHeading(page, 'Brands');
    await expectHeading(page, 'No brands found');
    await expect(page.getByRole('link', { name: 'Bulk Import' }).getAttribute('href')).resolves.toBe('/brands/bulk-import');

    // Create through the add screen; the shared schema's message shows before anything is sent.
    await page.getByRole('link', { name: 'Add Brand' }).click();
    await expectHeading(page, 'Add New Brand');
    await expect(page.getByRole('link', { name: 'Back to Brands' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('link', { name: 'Cancel' }).getAttribute('href')).resolves.toBe('/brands');
    // In the server's HTML the form posts to its own page (the route action), so it works before the script runs.
    const html = await (await page.context().request.get(`${base}/brands/add`)).text();
    expect(/<form [^>]*records-form[^>]*>/.exec(html)?.[0]).toMatch(/method="post"/);
    expect(html).not.toMatch(/<button type="submit"[^>]*disabled/);
    await page.getByRole('button', { name: 'Create Brand' }).click();
    await page.getByText('Brand name is required').waitFor();
    await page.getByLabel('Brand name').fill('Stride Shoes');
    await page.getByLabel('Industry category').fill('Footwear');
    await page.getByLabel('Website').fill('https://stride.example.org');
    await page.getByRole('button', { name: 'Create Brand' }).click();
    await expectToast(page, 'Brand created successfully');
    await page.waitForURL(/\/brands\/\d+$/);
    await expectHeading(page, 'Stride Shoes');
    await expectHeading(page, 'Brand Information');
    await expectHeading(page, 'Quick Info');
    await expect(page.getByRole('link', { name: /Visit Site/ }).getAttribute('href')).resolves.toBe('https://stride.example.org/');

    // Find it by search among others; the search lives in the URL and survives a reload.
    await apiAs(page, base, 'POST', '/api/brands', { brandName: 'Harbour Hydration', industryCategory: 'Drinks' });
    await page.getByRole('link', { name: 'Back to Brands' }).click();
    await page.waitForURL(`${base}/brands`);
    await expect.poll(() => cardTitles(page)).toEqual(expect.arrayContaining(['Stride Shoes', 'Harbour Hydration']));
    await search(page, 'footw');
    await expect.poll(() => cardTitles(page)).toEqual(['Stride Shoes']);
    await page.reload();
    await waitForHydration(page);
    await expect.poll(() => cardTitles(page)).toEqual(['Stride Shoes']);
    await expect(page.getByRole('searchbox').inputValue()).resolves.toBe('footw');
    await search(page, 'no such brand');
    await expectHeading(page, 'No brands found');
    await page.goBack();
    await expect.poll(() => cardTitles(page)).toEqual(['Stride Shoes']);

    // Edit from the card: the form is prefilled, and saving goes to the detail page.
    await page.getByRole('link', { name: 'Edit Stride Shoes' }).click();
    await expectHeading(page, 'Edit Brand');
    await expect(page.getByLabel('Brand name').inputValue()).resolves.toBe('Stride Shoes');
    await page.getByLabel('Brand name').fill('Stride Running');
    await page.getByRole('button', { name: 'Update Brand' }).click();
    await expectToast(page, 'Brand updated successfully');
    await expectHeading(page, 'Stride Running');
    const detailUrl = page.url();

    // Delete from the detail page, then go to the list.
    await confirmDelete(
      page,
      page.getByRole('button', { name: 'Delete' }),
      'Are you sure you want to delete this brand? This action cannot be undone.',
    );
    await expectToast(page, 'Brand deleted successfully');
    await page.waitForURL(`${base}/brands`);
    await expect.poll(() => cardTitles(page)).toEqual(['Harbour Hydration']);

    // Delete from the list card.
    await confirmDelete(
      page,
      page.getByRole('button', { name: 'Delete Harbour Hydration', includeHidden: true }),
      'Are you sure you want to delete this brand?',
    );
    await expectToast(page, 'Brand deleted successfully');
    await expectHeading(page, 'No brands found');

    // The deleted brand's pages say so, with a way back.
    await page.goto(detailUrl);
    await expectHeading(page, 'Brand not found');
    await page.goto(`${detailUrl}/edit`);
    await expectHeading(page, 'Brand not found');
    await page.getByText('The brand you are trying to edit does not exist.').waitFor();
    await page.getByRole('link', { name: 'Return to Brands' }).click();
    await page.waitForURL(`${base}/brands`);
    suite.watched.assertClean({ expectedHttpStatuses: [404] });
  });

  it('media', async () => {
    const { page } = suite.watched;
    const base = suite.server.baseUrl;
    await page.goto(`${base}/media`);
    await waitForHydration(page);
    await expectHeading(page, 'Media Management');
    await expect(page.getByRole('searchbox').getAttribute('placeholder')).resolves.toBe('Search media outlets...');
    await expectHeading(page, 'No media outlets found');
    await page.getByText('Get started by adding your first media outlet.').waitFor();

    await page.getByRole('link', { name: 'Add Media Outlet' }).click();
    await expectHeading(page, 'Add New Media Outlet');
    await page.getByRole('button', { name: 'Create Media Outlet' }).click();
    await page.getByText('Media name is required').waitFor();
    await page.getByLabel('Media name').fill('Trail Talk Podcast');
    await page.getByLabel('Industry').fill('Podcast');
    await page.getByLabel('Instagram URL').fill('https://www.instagram.com/trailtalk');
    await page.getByRole('button', { name: 'Create Media Outlet' }).click();
    await expectToast(page, 'Media outlet created successfully');
    await expectHeading(page, 'Trail Talk Podcast');
    await expectHeading(page, 'Quick Info');
    await page.getByText('Last updated').waitFor();

    await page.getByRole('link', { name: 'Back to Media' }).click();
    await page.waitForURL(`${base}/media`);
    await apiAs(page, base, 'POST', '/api/media', { mediaName: 'Runner Weekly' });
    await search(page, 'PODCAST');
    await expect.poll(() => cardTitles(page)).toEqual(['Trail Talk Podcast']);
    await search(page, 'nothing like this');
    await expectHeading(page, 'No media outlets found');
    await page.getByText('Try adjusting your search terms.').waitFor();
    await search(page, 'trail');

    await page.getByRole('link', { name: 'Edit Trail Talk Podcast' }).click();
    await expectHeading(page, 'Edit Media Outlet');
    await page.getByLabel('Media name').fill('Trail Talk Radio');
    await page.getByRole('button', { name: 'Update Media Outlet' }).click();
    await expectToast(page, 'Media outlet updated successfully');
    await expectHeading(page, 'Trail Talk Radio');
    const detailUrl = page.url();

    await confirmDelete(
      page,
      page.getByRole('button', { name: 'Delete' }),
      'Are you sure you want to delete this media outlet? This action cannot be undone.',
    );
    await expectToast(page, 'Media outlet deleted successfully');
    await page.waitForURL(`${base}/media`);
    await expect.poll(() => cardTitles(page)).toEqual(['Runner Weekly']);
    await page.goto(detailUrl);
    await expectHeading(page, 'Media outlet not found');
    suite.watched.assertClean({ expectedHttpStatuses: [404] });
  });

  it('influencers', async () => {
    const { page } = suite.watched;
    const base = suite.server.baseUrl;
    await page.goto(`${base}/influencers`);
    await waitForHydration(page);
    await expectHeading(page, 'Influencers');
    await expect(page.getByRole('searchbox').getAttribute('placeholder')).resolves.toBe('Search influencers...');
    await expectHeading(page, 'No influencers found');

    await page.getByRole('link', { name: 'Add Influencer' }).click();
    await expectHeading(page, 'Add New Influencer');
    await page.getByRole('button', { name: 'Create Influencer' }).click();
    await page.getByText('First name is required').waitFor();
    await page.getByText('Last name is required').waitFor();
    await page.getByLabel('First name').fill('Ava');
    await page.getByLabel('Last name').fill('Stride');
    await page.getByLabel('Type').selectOption({ label: 'Pro & Influencer' });
    await page.getByLabel('Instagram handle').fill('@avaruns');
    await page.getByLabel('TikTok handle').fill('ava.tt');
    await page.getByLabel('Email').fill('ava@example.org');
    await page.getByRole('button', { name: 'Create Influencer' }).click();
    await expectToast(page, 'Influencer created successfully');
    await expectHeading(page, 'Ava Stride');
    await page.getByText('Pro & Influencer').first().waitFor();
    await expect(page.getByRole('link', { name: /^@avaruns/ }).getAttribute('href')).resolves.toBe('https://www.instagram.com/avaruns');
    await expect(page.getByRole('link', { name: /^@ava\.tt/ }).getAttribute('href')).resolves.toBe('https://www.tiktok.com/@ava.tt');
    await expect(page.getByRole('link', { name: 'ava@example.org' }).getAttribute('href')).resolves.toBe('mailto:ava@example.org');

    await page.getByRole('link', { name: 'Back to Influencers' }).click();
    await page.waitForURL(`${base}/influencers`);
    await apiAs(page, base, 'POST', '/api/influencers', { firstName: 'Ben', lastName: 'Pace', influencerType: 'pro' });
    await search(page, 'avaruns');
    await expect.poll(() => cardTitles(page)).toEqual(['Ava Stride']);
    const card = page.getByTestId('influencer-card');
    await expect(card.textContent()).resolves.toContain('@avaruns');
    await expect(card.textContent()).resolves.toContain('Pro & Influencer');

    await page.getByRole('link', { name: 'Edit Ava Stride' }).click();
    await expectHeading(page, 'Edit Influencer');
    await expect(page.getByLabel('Type').inputValue()).resolves.toBe('both');
    await page.getByLabel('Last name').fill('Striding');
    await page.getByRole('button', { name: 'Update Influencer' }).click();
    await expectToast(page, 'Influencer updated successfully');
    await expectHeading(page, 'Ava Striding');
    const detailUrl = page.url();

    await page.getByRole('link', { name: 'Back to Influencers' }).click();
    await expect.poll(() => cardTitles(page)).toEqual(expect.arrayContaining(['Ava Striding', 'Ben Pace']));
    await confirmDelete(
      page,
      page.getByRole('button', { name: 'Delete Ava Striding', includeHidden: true }),
      'Are you sure you want to delete this influencer?',
    );
    await expectToast(page, 'Influencer deleted successfully');
    await expect.poll(() => cardTitles(page)).toEqual(['Ben Pace']);
    await page.goto(detailUrl);
    await expectHeading(page, 'Influencer not found');
    suite.watched.assertClean({ expectedHttpStatuses: [404] });
  });

  it('lists: live search, pages in the URL, skeleton cards while loading, fresh dashboard counts, keyboard-only delete', async () => {
    const { page } = suite.watched;
    const base = suite.server.baseUrl;
    for (let i = 1; i <= 26; i++) {
      await apiAs(page, base, 'POST', '/api/influencers', {
        firstName: 'Runner',
        lastName: `Number ${String(i).padStart(2, '0')}`,
        influencerType: 'pro',
      });
    }
    // Earlier tests may have left some: count what the server holds.
    const { total } = await apiAs<{ total: number }>(page, base, 'GET', '/api/influencers');
    expect(total).toBeGreaterThan(24);
    expect(total).toBeLessThanOrEqual(48);
    await page.goto(`${base}/influencers`);
    await waitForHydration(page);
    await expect.poll(() => cardTitles(page).then((titles) => titles.length)).toBe(24);
    await page.getByText('Page 1 of 2').waitFor();

    // Typing alone searches after a pause; the page number resets.
    await page.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    await expect.poll(() => cardTitles(page).then((titles) => titles.length)).toBe(total - 24);
    // A pause after a space searches for the trimmed text, and typing on keeps the space.
    await page.getByRole('searchbox').pressSequentially('number ', { delay: 20 });
    await page.waitForURL((url) => url.searchParams.get('q') === 'number' && !url.searchParams.has('page'));
    await page.getByRole('searchbox').pressSequentially('1', { delay: 20 });
    await page.waitForURL((url) => url.searchParams.get('q') === 'number 1');
    await expect(page.getByRole('searchbox').inputValue()).resolves.toBe('number 1');
    await expect.poll(() => cardTitles(page).then((titles) => titles.length)).toBe(10);
    expect(await cardTitles(page)).toEqual(expect.arrayContaining(['Runner Number 10', 'Runner Number 19']));
    // The box keeps focus while the results change.
    await expect(page.evaluate(() => document.activeElement?.getAttribute('type'))).resolves.toBe('search');

    // The dashboard counts what is there now, and a client-side move to a list shows skeleton cards first.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    await expect.poll(() => page.getByTestId('stat-influencers').textContent()).toContain(String(total));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/influencers?*', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Influencers' }).click();
    await page.getByTestId('skeleton-cards').waitFor();
    await expect(page.locator('[data-testid="skeleton-cards"] .record-card').count()).resolves.toBe(6);
    release();
    await expectHeading(page, 'Influencers');
    await page.unroute('**/api/influencers?*');

    // Keyboard only: open the dialog, Escape cancels and gives focus back, Enter on Delete deletes.
    await search(page, 'Number 26');
    // The delete sits in the card's "⋯" menu: Enter opens it, Tab reaches its Delete.
    await page.getByLabel('More actions for Runner Number 26', { exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Delete Runner Number 26', exact: true }).waitFor();
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Delete Runner Number 26');
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    // Radix gives focus back in a task after the dialog unmounts, so wait for it rather than read it at once.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Delete Runner Number 26');
    await page.keyboard.press('Enter');
    await page.getByRole('alertdialog').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expectToast(page, 'Influencer deleted successfully');
    await expectHeading(page, 'No influencers found');
    suite.watched.assertClean();
  });
});
