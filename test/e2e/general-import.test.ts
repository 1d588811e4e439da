import { describe, expect, it } from 'vitest';
import { browserSuite, waitForHydration } from './harness.js';

/** A media list whose headers are not ours: "Outlet name" and "Site" are mapped by hand, "Notes" by its name. */
const FILE = Buffer.from(
  'Outlet name,Site,Notes,Unused\nRun Mag,https://runmag.example.org,Monthly,x\n,https://nobody.example.org,No name,y\nTrail Times,,Weekly,z\n',
);

describe('the general import screen /imports/new (real Chromium)', () => {
  const suite = browserSuite({ signedIn: { path: '/jobs' } });

  it('maps columns, previews a row with an error, imports, shows the result; the next file with those headers gets the saved mapping and a duplicate warning', async () => {
    const { page } = suite.watched;
    await waitForHydration(page);
    // Reached from the Jobs page.
    await page.getByRole('link', { name: 'Import a list' }).click();
    await page.getByRole('heading', { name: 'Import a list' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/imports/new');

    // Step 1: the list and the file.
    await page.getByLabel('List').selectOption('media');
    await page.getByTestId('general-import-file').setInputFiles({ name: 'outlets.csv', mimeType: 'text/csv', buffer: FILE });
    await page.getByRole('button', { name: 'Next: map columns' }).click();

    // Step 2: the mapping, suggested by the headers' names, with sample values; changed by hand.
    const mapping = page.getByTestId('general-import-mapping');
    await mapping.waitFor();
    await expect(page.getByTestId('general-import-summary').textContent()).resolves.toContain('3 rows of media');
    await expect(mapping.getByRole('row', { name: /Outlet name/ }).textContent()).resolves.toContain('Run Mag · Trail Times');
    await expect(page.getByLabel('Field for Notes').inputValue()).resolves.toBe('notes');
    await expect(page.getByLabel('Field for Outlet name').inputValue()).resolves.toBe('');
    await expect(page.getByTestId('general-import-saved').count()).resolves.toBe(0);
    await page.getByLabel('Field for Outlet name').selectOption({ label: 'Media name *' });
    await page.getByLabel('Field for Site').selectOption('websiteUrl');
    await page.getByLabel('Mode').selectOption('create');
    await page.getByRole('button', { name: 'Next: preview' }).click();

    // Step 3: a dry run: counts and the row that fails, nothing written.
    const preview = page.getByTestId('general-import-preview');
    await preview.waitFor();
    await expect(page.getByTestId('general-import-dry-counts-created').textContent()).resolves.toBe('2To create');
    await expect(page.getByTestId('general-import-dry-counts-failed').textContent()).resolves.toBe('1With errors');
    const problems = page.getByTestId('general-import-problems');
    await expect(problems.getByRole('row').nth(1).textContent()).resolves.toMatch(/^3failed.*required/);
    expect(await suite.server.ctx.db('media').count({ n: '*' })).toEqual([{ n: 0 }]);

    // Step 4: the import with its progress, the result and the report.
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const result = page.getByTestId('general-import-result');
    await result.waitFor();
    await expect(page.getByTestId('general-import-counts-created').textContent()).resolves.toBe('2Created');
    await expect(page.getByTestId('general-import-counts-failed').textContent()).resolves.toBe('1Failed');
    const href = await page.getByTestId('general-import-report').getAttribute('href');
    expect(href).toMatch(/^\/api\/imports\/\d+\/report\.csv$/);
    const report = await page.evaluate(async (url) => (await fetch(url!)).text(), href);
    expect(
      report
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .slice(0, 4),
    ).toEqual(['row,outcome,message', '2,created,', expect.stringMatching(/^3,failed,/), '4,created,']);
    const stored = (await suite.server.ctx.db('media').orderBy('id').select('mediaName', 'websiteUrl', 'notes')) as Array<
      Record<string, unknown>
    >;
    expect(stored.map((row) => row.mediaName)).toEqual(['Run Mag', 'Trail Times']);
    expect(stored[0]).toMatchObject({ websiteUrl: 'https://runmag.example.org', notes: 'Monthly' });

    // The same headers again: the mapping of that import is filled in.
    await page.getByRole('button', { name: 'Import another file' }).click();
    await page.getByLabel('List').selectOption('media');
    await page.getByTestId('general-import-file').setInputFiles({
      name: 'more.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('Outlet name,Site,Notes,Unused\nPace Weekly,,,\nRun Mag Pty Ltd,,,\n'),
    });
    await page.getByRole('button', { name: 'Next: map columns' }).click();
    await page.getByTestId('general-import-saved').waitFor();
    await expect(page.getByLabel('Field for Outlet name').inputValue()).resolves.toBe('mediaName');
    await expect(page.getByLabel('Field for Site').inputValue()).resolves.toBe('websiteUrl');
    await expect(page.getByLabel('Field for Unused').inputValue()).resolves.toBe('');
    // Its preview warns of the row that looks like a stored outlet ("Pty Ltd" aside, the same name).
    await page.getByRole('button', { name: 'Next: preview' }).click();
    await page.getByTestId('general-import-preview').waitFor();
    await expect(page.getByTestId('general-import-problems').getByRole('row').nth(1).textContent()).resolves.toMatch(
      /^3created\s*Possible duplicate of Run Mag \(id \d+\): same name$/,
    );
    suite.watched.assertClean();
  });
});
