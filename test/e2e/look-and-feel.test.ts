import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import axe from 'axe-core';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '@seeds/demo.js';
import {
  apiAs,
  createStaffUser,
  launchBrowser,
  signIn,
  waitForHydration,
  type E2EServer,
  type WatchedPage,
  startServer,
} from './harness.js';
import { expectToast, openRecordsPage } from './records-steps.js';
import { waitUntil } from '../helpers/wait.js';
import type { JobView } from '@shared/schemas/jobs.js';

/**
 * Every screen of the spec, at a phone's 390 px and a laptop's 1366 px, in the light and the dark theme, from the
 * demo data and a fixed clock: no page scrolls sideways, no table cell breaks inside a word, axe-core finds no
 * serious or critical violation, and each full-page screenshot matches its baseline in test/e2e/baselines
 * (`UPDATE_BASELINES=1` rewrites them after an intended change). One browser page, reused, screen after screen.
 */

const FIXED_NOW = new Date('2026-11-21T09:00:00.000Z');
const WIDTHS = [1366, 390] as const;
const THEMES = ['light', 'dark'] as const;
const BASELINES = path.join(import.meta.dirname, 'baselines');
const UPDATE = process.env.UPDATE_BASELINES === '1';
/** Share of pixels allowed to differ (anti-aliasing noise), and pixelmatch's per-pixel colour threshold. */
const PIXEL_TOLERANCE = 0.002;
const COLOUR_THRESHOLD = 0.1;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** The screens of the spec's route table (and the calendar, detail tabs and Jobs page added beside it), by name. */
function screensOf(ids: { contact: number }): Array<[name: string, url: string]> {
  return [
    ['dashboard', '/'],
    ['events', '/events'],
    ['events-calendar', '/events?view=calendar&month=2027-05'],
    ['events-bulk-import', '/events/bulk-import'],
    ['event-detail', '/events/1'],
    ['event-contacts-tab', '/events/1?tab=contacts'],
    ['event-payments-tab', '/events/1?tab=payments'],
    ['event-edit', '/events/1/edit'],
    ['event-contact-add', '/events/1/contacts/add'],
    ['event-contact-edit', `/events/1/contacts/${ids.contact}/edit`],
    ['professionals', '/professionals'],
    ['professional-add', '/professionals/add'],
    ['professional-detail', '/professionals/1'],
    ['professional-edit', '/professionals/1/edit'],
    ['runclubs', '/runclubs'],
    ['runclub-detail', '/runclubs/1'],
    ['runclub-edit', '/runclubs/1/edit'],
    ['brands', '/brands'],
    ['brands-bulk-import', '/brands/bulk-import'],
    ['brand-add', '/brands/add'],
    ['brand-detail', '/brands/1'],
    ['brand-edit', '/brands/1/edit'],
    ['media', '/media'],
    ['media-add', '/media/add'],
    ['media-detail', '/media/1'],
    ['media-edit', '/media/1/edit'],
    ['influencers', '/influencers'],
    ['influencer-add', '/influencers/add'],
    ['influencer-detail', '/influencers/1'],
    ['influencer-edit', '/influencers/1/edit'],
    ['integrations', '/integrations'],
    ['jobs', '/jobs'],
    ['contact-detail', `/contacts/${ids.contact}?return=/events/1`],
    ['contact-edit', `/contacts/${ids.contact}/edit?return=/events/1`],
    ['not-found', '/no-such-page'],
  ];
}

/** Words (between spaces and hyphens) that a table cell shows on more than one line: broken inside the word. */
function wordsBrokenInCells(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    for (const cell of document.querySelectorAll('td, th')) {
      if (cell.getClientRects().length === 0 || cell.closest('.visually-hidden')) continue;
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of (node.textContent ?? '').matchAll(/[^\s\-–—]+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
          if (lines.size > 1) broken.push(`"${match[0]}" in "${(cell.textContent ?? '').trim().slice(0, 40)}"`);
        }
      }
    }
    return broken;
  });
}

/** Badges and dates that must read on one line ("Pro & Influencer", "6:57 am") but wrap onto two. */
function wrappedLabels(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const wrapped: string[] = [];
    for (const element of document.querySelectorAll('.badge, .records-dl time, .dashboard-when')) {
      if (element.getClientRects().length === 0 || element.closest('.visually-hidden')) continue;
      // The lines its text sits on (a badge's dot or icon is no text and may sit a little higher).
      const lines = new Set<number>();
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) if (rect.width > 0) lines.add(Math.round(rect.bottom));
      }
      if (lines.size > 1) wrapped.push(`"${(element.textContent ?? '').trim()}"`);
    }
    return wrapped;
  });
}

async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run(document)).violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.help}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A screenshot's pixels over the tolerance: how many, and pixelmatch's picture of them. */
interface PixelDifference {
  differing: number;
  diff: PNG;
}

/**
 * How a screenshot differs from its stored baseline: a problem that needs no picture (no baseline, another size),
 * or the pixels that differ; null when it matches (or was just written).
 */
function compareWithBaseline(name: string, screenshot: Buffer): { problem: string } | PixelDifference | null {
  const file = path.join(BASELINES, `${name}.png`);
  if (UPDATE) {
    mkdirSync(BASELINES, { recursive: true });
    writeFileSync(file, screenshot);
    return null;
  }
  if (!existsSync(file))
    return { problem: `${name}: no baseline (run UPDATE_BASELINES=1 npm run test:e2e -- test/e2e/look-and-feel.test.ts)` };
  const stored = readFileSync(file);
  // Chromium encodes the same pixels to the same bytes: only a changed image is worth decoding and comparing.
  if (stored.equals(screenshot)) return null;
  const expected = PNG.sync.read(stored);
  const actual = PNG.sync.read(screenshot);
  if (expected.width !== actual.width || expected.height !== actual.height)
    return { problem: `${name}: the page is ${actual.width}×${actual.height}, its baseline ${expected.width}×${expected.height}` };
  const diff = new PNG({ width: actual.width, height: actual.height });
  const differing = pixelmatch(expected.data, actual.data, diff.data, actual.width, actual.height, { threshold: COLOUR_THRESHOLD });
  return differing / (actual.width * actual.height) <= PIXEL_TOLERANCE ? null : { differing, diff };
}

/** The smallest box holding every pixel pixelmatch marked as differing (its diff colour, pure red). */
function differingBox(diff: PNG): Box {
  const box = { left: diff.width, top: diff.height, right: -1, bottom: -1 };
  for (let y = 0; y < diff.height; y++)
    for (let x = 0; x < diff.width; x++) {
      const at = (y * diff.width + x) * 4;
      if (diff.data[at] !== 255 || diff.data[at + 1] !== 0 || diff.data[at + 2] !== 0) continue;
      box.left = Math.min(box.left, x);
      box.right = Math.max(box.right, x);
      box.top = Math.min(box.top, y);
      box.bottom = Math.max(box.bottom, y);
    }
  return box;
}

/** The elements drawn at a point of the full page, innermost last, so a failure names what changed. */
function elementsAt(page: Page, x: number, y: number): Promise<string> {
  return page.evaluate(
    ({ pageX, pageY }) =>
      [...document.querySelectorAll('body *')]
        .filter((element) => {
          const rect = element.getBoundingClientRect();
          const left = rect.left + window.scrollX;
          const top = rect.top + window.scrollY;
          return pageX >= left && pageX <= left + rect.width && pageY >= top && pageY <= top + rect.height;
        })
        .slice(-3)
        .map((element) => `${element.tagName.toLowerCase()}.${String(element.className)}`)
        .join(' > '),
    { pageX: x, pageY: y },
  );
}

const fullPageScreenshot = (page: Page) => page.screenshot({ fullPage: true, animations: 'disabled' });

/** The first of two screenshots in a row that are the same, from `previous` on: nothing is still being drawn. */
async function settledScreenshot(page: Page, previous: Buffer): Promise<Buffer> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const next = await fullPageScreenshot(page);
    if (next.equals(previous)) return next;
    previous = next;
  }
  return previous;
}

/**
 * Compares the page with its baseline. A page that differs is shot again once it has settled (a frame still being
 * painted on a busy machine is no change of the screen); a difference that stays is kept beside its diff and named
 * with the box where the pixels differ and what is drawn there.
 */
async function checkBaseline(page: Page, name: string): Promise<string | null> {
  const first = await fullPageScreenshot(page);
  if (!compareWithBaseline(name, first)) return null;
  const settled = await settledScreenshot(page, first);
  const found = compareWithBaseline(name, settled);
  if (!found || 'problem' in found) return found?.problem ?? null;
  const diffFile = path.join(tmpdir(), `pacer-diff-${name}.png`);
  writeFileSync(diffFile, PNG.sync.write(found.diff));
  writeFileSync(path.join(tmpdir(), `pacer-actual-${name}.png`), settled);
  const { left, right, top, bottom } = differingBox(found.diff);
  const there = await elementsAt(page, (left + right) / 2, (top + bottom) / 2);
  return `${name}: ${found.differing} pixels differ from the baseline in x ${left}–${right}, y ${top}–${bottom} (diff in ${diffFile}); there: ${there}`;
}

async function setTheme(page: Page, theme: (typeof THEMES)[number]) {
  await page.evaluate((choice) => {
    document.documentElement.dataset.theme = choice;
  }, theme);
}

/**
 * Checks the page now shown: layout at this width, then per theme axe (at the wide width: contrast does not depend
 * on it) and the baseline. Returns every problem found, so one run reports them all.
 */
async function checkScreen(page: Page, name: string, width: number): Promise<string[]> {
  const problems: string[] = [];
  await page.evaluate(() => document.fonts.ready);
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (sideways > 0) {
    // Name the innermost elements that stick out, so the failure says what to fix.
    const outside = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
        .slice(-3)
        .map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
    );
    problems.push(`${name} at ${width}px scrolls sideways by ${sideways}px (${outside.join(', ')})`);
  }
  for (const word of await wordsBrokenInCells(page)) problems.push(`${name} at ${width}px breaks ${word}`);
  for (const label of await wrappedLabels(page)) problems.push(`${name} at ${width}px wraps ${label} onto two lines`);
  for (const theme of THEMES) {
    await setTheme(page, theme);
    if (width === WIDTHS[0]) for (const violation of await seriousViolations(page)) problems.push(`${name} (${theme}): ${violation}`);
    const problem = await checkBaseline(page, `${name}-${width}-${theme}`);
    if (problem) problems.push(problem);
  }
  return problems;
}

describe('look and feel: every screen at 390 and 1366 px, light and dark (real Chromium)', () => {
  let server: E2EServer;
  let browser: Browser;
  let watched: WatchedPage;
  let page: Page;
  let credentials: { email: string; password: string };
  let contactId: number;

  beforeAll(async () => {
    server = await startServer({ clock: { now: () => new Date(FIXED_NOW) } });
    await seedDemoData(server.ctx);
    credentials = await createStaffUser(server);
    browser = await launchBrowser();
    watched = await openRecordsPage(browser);
    page = watched.page;
    await page.clock.setFixedTime(FIXED_NOW);
    // The zone the browser would report, set before the first page so every render formats alike.
    await watched.context.addCookies([{ name: 'tz', value: 'Australia%2FSydney', url: server.baseUrl }]);
  });
  afterAll(async () => {
    await watched?.close();
    await browser?.close();
    await server?.close();
  });

  /**
   * Jobs for the Jobs page to list that change no other screen: a brands import's dry run (succeeds) and a
   * newsletter push with Mailchimp not configured (fails with its error), each waited for to the end.
   */
  async function startJobsToList() {
    const rows = [{ Brand: 'Harbour Runners', 'First Name': 'Ana', 'Last Name': 'Lima', Email: 'ana@harbour.example.org' }];
    for (const job of [
      { type: 'import', params: { kind: 'brands', dryRun: true, data: rows, lines: [2] } },
      { type: 'newsletter', params: { audienceId: 'runners1', ownerType: 'brand', dryRun: true } },
    ]) {
      const { id } = await apiAs<{ id: number }>(page, server.baseUrl, 'POST', '/api/jobs', job);
      await waitUntil(
        async () => ['succeeded', 'failed'].includes((await apiAs<JobView>(page, server.baseUrl, 'GET', `/api/jobs/${id}`)).state),
        `job ${id} to finish`,
        60_000,
      );
    }
  }

  it('the sign-in screen', async () => {
    const problems: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(server.baseUrl + '/');
      await waitForHydration(page);
      problems.push(...(await checkScreen(page, 'sign-in', width)));
    }
    expect(problems).toEqual([]);
    watched.assertClean();
  });

  describe.each(WIDTHS)('at %i px', (width) => {
    beforeAll(async () => {
      await page.setViewportSize({ width, height: 900 });
      if (!contactId) {
        await signIn(page, server.baseUrl, credentials);
        const contacts = await apiAs<Array<{ id: number }>>(page, server.baseUrl, 'GET', '/api/contacts/event/1');
        contactId = contacts[0]!.id;
        await startJobsToList();
      }
    });

    it('every screen holds its layout, passes axe in both themes and matches its baselines', async () => {
      const problems: string[] = [];
      for (const [name, url] of screensOf({ contact: contactId })) {
        const response = await page.goto(server.baseUrl + url);
        expect([url, response?.status()]).toEqual([url, name === 'not-found' ? 404 : 200]);
        await waitForHydration(page);
        // Cards that read their data after hydration (history, notes, tasks) are drawn before the screenshot.
        await page.waitForLoadState('networkidle');
        problems.push(...(await checkScreen(page, name, width)));
      }
      watched.assertClean({ expectedHttpStatuses: [404] });
      expect(problems).toEqual([]);
    }, 300_000);
  });

  it('aligns form boxes and keeps row buttons compact', async () => {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.baseUrl}/events/1/contacts/add`);
      await waitForHydration(page);
      const tops = await Promise.all(
        ['Email', 'Phone', 'Mailchimp Tags'].map(async (label) =>
          Math.round((await page.getByLabel(label, { exact: true }).boundingBox())!.y),
        ),
      );
      const heights = await Promise.all(
        ['Email', 'Phone', 'Mailchimp Tags'].map(async (label) =>
          Math.round((await page.getByLabel(label, { exact: true }).boundingBox())!.height),
        ),
      );
      // Boxes side by side share their top and height (at 390 px each sits on its own row).
      if (width === 1366) expect(new Set(tops).size).toBe(1);
      expect(new Set(heights).size).toBe(1);

      await page.goto(`${server.baseUrl}/events/1?tab=contacts`);
      await waitForHydration(page);
      const edit = page.getByRole('link', { name: /^Edit / }).first();
      expect((await edit.boundingBox())!.height).toBeLessThan(36);
    }
    watched.assertClean();
  });

  it('follows the system theme until the toggle picks one, which the server then paints first', async () => {
    await page.setViewportSize({ width: 1366, height: 900 });
    const background = () => page.evaluate(() => getComputedStyle(document.body.parentElement!).backgroundColor);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${server.baseUrl}/`);
    await waitForHydration(page);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
    const systemDark = await background();
    await page.emulateMedia({ colorScheme: 'light' });
    const systemLight = await background();
    expect(systemDark).not.toBe(systemLight);

    // System → Light → Dark: the page changes at once and the choice is remembered in a cookie and as the user's
    // preference (saved in the background: the next page waits for that save, as a person's next click would).
    const saved = (value: string) =>
      page.waitForResponse(
        (response) => response.url().endsWith('/api/preferences/theme') && response.request().postData() === JSON.stringify({ value }),
      );
    const darkSaved = saved('dark');
    const toggle = page.getByRole('button', { name: /^Theme: / });
    await expect(toggle.getAttribute('aria-label')).resolves.toBe('Theme: System. Switch to Light');
    await toggle.click();
    await toggle.click();
    await expect(toggle.getAttribute('aria-label')).resolves.toBe('Theme: Dark. Switch to System');
    expect(await background()).toBe(systemDark);
    const cookies = await watched.context.cookies(server.baseUrl);
    expect(cookies.find((cookie) => cookie.name === 'theme')?.value).toBe('dark');
    expect((await darkSaved).status()).toBe(200);

    // The next page arrives already dark, though the system says light: no flash of the wrong theme.
    const response = await page.goto(`${server.baseUrl}/brands`);
    expect(await response!.text()).toMatch(/^<!DOCTYPE html><html lang="[^"]+" data-theme="dark">/);
    expect(await background()).toBe(systemDark);
    await expect(page.getByRole('button', { name: /^Theme: / }).getAttribute('aria-label')).resolves.toBe('Theme: Dark. Switch to System');

    // Back to System: the attribute goes, and the page follows the device again.
    const systemSaved = saved('system');
    await page.getByRole('button', { name: /^Theme: / }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
    expect(await background()).toBe(systemLight);
    expect((await systemSaved).status()).toBe(200);
    watched.assertClean();
  });

  it('can be used with the keyboard alone: sign in, a list, a detail, an edit and a dialog', async () => {
    await page.setViewportSize({ width: 1366, height: 900 });
    await watched.context.clearCookies();
    await watched.context.addCookies([{ name: 'tz', value: 'Australia%2FSydney', url: server.baseUrl }]);
    await page.goto(server.baseUrl + '/brands');
    await waitForHydration(page);

    /** Presses Tab (or Shift+Tab) until the focused element's text, label or name matches, as a keyboard user would. */
    const tabTo = async (wanted: RegExp, key: 'Tab' | 'Shift+Tab' = 'Tab') => {
      for (let presses = 0; presses < 80; presses++) {
        await page.keyboard.press(key);
        const focused = await page.evaluate(() => {
          const element = document.activeElement as HTMLElement | null;
          return element
            ? `${element.getAttribute('aria-label') ?? ''} ${element.innerText ?? ''} ${element.getAttribute('name') ?? ''}`.trim()
            : '';
        });
        if (wanted.test(focused)) return;
      }
      throw new Error(`Tab never reached ${wanted}`);
    };

    // Sign in: Tab into each field, type, Enter.
    await tabTo(/email/i);
    await page.keyboard.type(credentials.email);
    await tabTo(/password/i);
    await page.keyboard.type(credentials.password);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    await waitForHydration(page);

    // A list: from the search box to the first card's link, Enter opens the brand.
    await tabTo(/^Stride Footwear/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Stride Footwear' }).waitFor();

    // A detail page's tabs: arrow keys move between them.
    await tabTo(/^Details$/);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Payments \(\d+\)$/);
    await page.keyboard.press('Enter');
    await page
      .getByRole('tabpanel')
      .getByRole('heading', { name: /^Payments/ })
      .waitFor();

    // An edit: the header's Edit Brand link, a field, and Enter submits.
    await tabTo(/^Edit Brand$/, 'Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: /Edit/ }).waitFor();
    await tabTo(/industryCategory/);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Running shoes');
    await page.keyboard.press('Enter');
    await expectToast(page, 'Brand updated successfully');
    await page.getByText('Running shoes').first().waitFor();

    // A dialog: Delete asks, focus starts on Cancel, Escape closes and gives focus back to Delete.
    await tabTo(/^Delete$/);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Delete');
    watched.assertClean();
  });
});
