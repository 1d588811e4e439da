import { describe, expect, it } from 'vitest';
import { apiAs, browserSuite, waitForHydration } from './harness.js';
import { expectHeading, expectToast, openRecordsPage } from './records-steps.js';

/** Issue 33: a note added on a record's page, and a task completed on My tasks with the keyboard (real Chromium). */
describe('notes and tasks in the browser', () => {
  const suite = browserSuite({ signedIn: { path: '/', open: openRecordsPage } });

  it('adds a formatted note on a brand, shown as formatting and not as text', async () => {
    const { page } = suite.watched;
    const { id } = await apiAs<{ id: number }>(page, suite.server.baseUrl, 'POST', '/api/brands', { brandName: 'Noted Brand' });
    await page.goto(`${suite.server.baseUrl}/brands/${id}?tab=notes`);
    await waitForHydration(page);
    await expectHeading(page, 'Noted Brand');
    const box = page.getByLabel('New note');
    await box.fill('Met at the **expo**, see https://example.org');
    await page.getByRole('button', { name: 'Add note' }).click();
    await expectToast(page, 'Note added');
    const note = page.getByRole('list', { name: 'Notes' }).getByRole('article').first();
    await note.locator('strong', { hasText: 'expo' }).waitFor();
    expect(await note.locator('a[href="https://example.org"]').count()).toBe(1);
    expect(await note.textContent()).not.toContain('**');
    expect(await box.inputValue()).toBe('');
    suite.watched.assertClean();
  });

  it('completes a task on My tasks with j/k and x, with the focus visible and the task moved to Done', async () => {
    const { page } = suite.watched;
    const me = await apiAs<{ user: { id: number } }>(page, suite.server.baseUrl, 'GET', '/api/me');
    const today = (await apiAs<{ today: string }>(page, suite.server.baseUrl, 'GET', '/api/tasks')).today;
    for (const title of ['First task', 'Second task'])
      await apiAs(page, suite.server.baseUrl, 'POST', '/api/tasks', { title, dueDate: today, assigneeId: me.user.id });
    await page.goto(`${suite.server.baseUrl}/tasks`);
    await waitForHydration(page);
    await expectHeading(page, 'My tasks');
    const today_ = page.getByRole('list', { name: 'Today' });
    await today_.getByRole('listitem').nth(1).waitFor();
    await today_.getByRole('listitem').first().focus();
    await page.keyboard.press('j');
    // The row in focus: a task's list item.
    const focused = () =>
      page.evaluate(() => (document.activeElement?.tagName === 'LI' ? (document.activeElement.textContent ?? '') : 'no row'));
    expect(await focused()).toContain('Second task');
    // The focused row shows it (an outline).
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');
    await page.keyboard.press('x');
    await expectToast(page, 'Task completed');
    await page.getByRole('list', { name: 'Done' }).getByText('Second task').waitFor();
    expect(await today_.textContent()).not.toContain('Second task');
    // The completed task keeps the focus in its new place.
    await page.waitForFunction(
      () => document.activeElement?.tagName === 'LI' && document.activeElement.textContent?.includes('Second task'),
    );
    await page.keyboard.press('k');
    expect(await focused()).toContain('First task');
    await page.keyboard.press(' ');
    await page.getByRole('list', { name: 'Done' }).getByText('First task').waitFor();
    const done = await apiAs<{ items: Array<{ title: string; done: boolean }> }>(
      page,
      suite.server.baseUrl,
      'GET',
      '/api/tasks?assignee=me&status=done',
    );
    expect(done.items.map((task) => task.title).sort()).toEqual(['First task', 'Second task']);
    suite.watched.assertClean();
  });
});
