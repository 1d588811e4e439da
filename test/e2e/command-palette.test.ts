import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiAs, browserSuite, waitForHydration } from './harness.js';
import { expectHeading, openRecordsPage } from './records-steps.js';

describe('command palette and keyboard shortcuts (real Chromium)', () => {
  const suite = browserSuite({ signedIn: { path: '/brands', open: openRecordsPage, hydrated: true } });
  let contactId: number;

  beforeAll(async () => {
    const brand = await apiAs<{ id: number }>(suite.watched.page, suite.server.baseUrl, 'POST', '/api/brands', {
      brandName: 'Quokka Running Co',
    });
    for (let i = 1; i <= 6; i++)
      await apiAs(suite.watched.page, suite.server.baseUrl, 'POST', '/api/events', { eventName: `Quokka Dash ${i}` });
    const contact = await apiAs<{ id: number }>(suite.watched.page, suite.server.baseUrl, 'POST', '/api/contacts', {
      entityType: 'brand',
      entityId: brand.id,
      firstName: 'Zara',
      lastName: 'Quokkason',
      email: 'zara@quokka.example',
    });
    contactId = contact.id;
    for (let i = 1; i <= 32; i++) {
      await apiAs(suite.watched.page, suite.server.baseUrl, 'POST', '/api/events', {
        eventName: `Wombat Trot ${i}`,
        eventStartDate: '2027-08-01',
        locationState: 'QLD',
      });
    }
    await apiAs(suite.watched.page, suite.server.baseUrl, 'POST', '/api/professionals', {
      businessName: 'Wombat Coaching',
      professionType: 'coach',
      locationState: 'VIC',
    });
  });

  it('opens with Ctrl+K, groups results with counts, moves with the arrows and opens a contact with Enter', async () => {
    const { page } = suite.watched;
    await page.goto(`${suite.server.baseUrl}/brands`);
    await waitForHydration(page);
    await page.keyboard.press('Control+k');
    const input = page.getByRole('combobox', { name: /^Search events, professionals/ });
    await input.waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('combobox');
    await input.fill('quokka');
    await page.getByRole('group', { name: 'Contacts (1)' }).waitFor();
    expect(await page.getByRole('group', { name: 'Events (6)' }).getByRole('option').allTextContents()).toEqual([
      'Quokka Dash 6',
      'Quokka Dash 5',
      'Quokka Dash 4',
      'Quokka Dash 3',
      'Quokka Dash 2',
      'See all 6 events',
    ]);
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    // Walk to the contact: events (6 options), the brand, then the contact.
    for (let i = 0; i < 7; i++) await input.press('ArrowDown');
    const activeId = await input.getAttribute('aria-activedescendant');
    expect(await page.locator(`[id="${activeId}"]`).textContent()).toContain('Zara Quokkason');
    expect(await page.locator(`[id="${activeId}"]`).getAttribute('aria-selected')).toBe('true');
    await input.press('Enter');
    await page.waitForURL(`${suite.server.baseUrl}/contacts/${contactId}`);
    await expectHeading(page, 'Zara Quokkason');
    expect(await page.getByRole('combobox', { name: /^Search events, professionals/ }).count()).toBe(0);
  });

  it('goes to the filtered list from "See all", closes with Escape, and knows / and ?', async () => {
    const { page } = suite.watched;
    await page
      .getByRole('button', { name: /Search/ })
      .first()
      .click();
    const input = page.getByRole('combobox', { name: /^Search events, professionals/ });
    await input.fill('quokka dash');
    await page.getByRole('option', { name: 'See all 6 events' }).click();
    await page.waitForURL((url) => url.pathname === '/events' && url.searchParams.get('q') === 'quokka dash');
    await expectHeading(page, 'Events');

    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: /^Search events, professionals/ }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('combobox', { name: /^Search events, professionals/ }).waitFor({ state: 'detached' });

    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('records-search');
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("Focus this list's search");
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  /** Opens the palette, searches `text` and waits for the results; returns the search box. */
  async function openWithResults(page: Page, text: string) {
    await page.keyboard.press('Control+k');
    const input = page.getByRole('combobox', { name: /^Search events, professionals/ });
    await input.fill(text);
    await page.getByRole('group', { name: /^Events \(\d+\)$/ }).waitFor();
    return input;
  }

  /** Whether the element lies wholly inside the viewport. */
  const insideViewport = (page: Page, selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((element) => {
        const box = element.getBoundingClientRect();
        return box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth;
      });

  it('keeps the search box and the first result on screen with 30+ matches, on a desktop and a phone', async () => {
    for (const size of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      const { page } = suite.watched;
      await page.setViewportSize(size);
      await page.goto(`${suite.server.baseUrl}/brands`);
      await waitForHydration(page);
      const input = await openWithResults(page, 'wombat');
      await page.getByRole('group', { name: 'Events (32)' }).waitFor();
      expect(await insideViewport(page, '.command-palette-input'), `search box at ${size.width}px`).toBe(true);
      expect(await insideViewport(page, '[role="option"]'), `first result at ${size.width}px`).toBe(true);
      // The results scroll inside the palette, which stays within the screen.
      expect(await insideViewport(page, '.command-palette'), `palette at ${size.width}px`).toBe(true);
      await input.press('Escape');
      await input.waitFor({ state: 'detached' });
    }
    await suite.watched.page.setViewportSize({ width: 1280, height: 800 });
    suite.watched.assertClean();
  });

  it('formats dates and labels in the results, and the highlighted result passes axe colour contrast in both themes', async () => {
    const { page } = suite.watched;
    await page.goto(`${suite.server.baseUrl}/brands`);
    await waitForHydration(page);
    const input = await openWithResults(page, 'wombat');
    const firstEvent = page.getByRole('group', { name: 'Events (32)' }).getByRole('option').first();
    expect(await firstEvent.textContent()).toBe('Wombat Trot 32 1 Aug 2027 · QLD');
    expect(await page.getByRole('group', { name: 'Professionals (1)' }).getByRole('option').textContent()).toBe(
      'Wombat Coaching Coach · VIC',
    );
    expect(await firstEvent.getAttribute('aria-selected')).toBe('true');
    await page.evaluate(axe.source);
    for (const theme of ['light', 'dark']) {
      await page.evaluate((choice) => {
        document.documentElement.dataset.theme = choice;
      }, theme);
      const violations = await page.evaluate(async () => {
        const run = (
          window as unknown as {
            axe: { run(context: Element, options: object): Promise<{ violations: Array<{ id: string; nodes: unknown[] }> }> };
          }
        ).axe;
        const option = document.querySelector('[role="option"][aria-selected="true"]')!;
        return (await run.run(option, { runOnly: ['color-contrast'] })).violations;
      });
      expect(violations, `${theme} theme`).toEqual([]);
    }
    await input.press('Escape');
    suite.watched.assertClean();
  });
});
