import { describe, expect, it } from 'vitest';
import { apiAs, browserSuite } from './harness.js';

/** Issue 29 point 5: the Jobs page says running jobs update as they go, so a job started after it loaded shows up. */
describe('the Jobs page lists jobs started after it loaded (real Chromium)', () => {
  const suite = browserSuite({ signedIn: { path: '/jobs' } });

  it('shows a job started elsewhere (another tab, the CLI) without a reload, with its result', async () => {
    const { page } = suite.watched;
    await page.getByText('No jobs found').waitFor();
    let reloaded = false;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) reloaded = true;
    });
    const rows = [{ Brand: 'Harbour Runners', 'First Name': 'Ana', 'Last Name': 'Lima', Email: 'ana@harbour.example.org' }];
    const { id } = await apiAs<{ id: number }>(page, suite.server.baseUrl, 'POST', '/api/jobs', {
      type: 'import',
      params: { kind: 'brands', dryRun: true, data: rows, lines: [2] },
    });
    const item = page.getByTestId(`job-${id}`);
    await item.waitFor();
    await item.getByTestId('job-state').filter({ hasText: 'Succeeded' }).waitFor();
    expect(await item.getByTestId('job-counts').textContent()).toBe('Created 1 brands and 1 contacts');
    expect(reloaded).toBe(false);
    suite.watched.assertClean();
  });
});
