import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeTimestamp } from '@db/codecs.js';
import { browserSuite, waitForHydration } from './harness.js';

async function toastText(page: Page): Promise<string> {
  const toast = page.getByTestId('toast');
  await toast.waitFor();
  return (await toast.textContent()) ?? '';
}

describe('bulk import screens (real Chromium)', () => {
  const suite = browserSuite({ signedIn: { path: '/events/bulk-import' } });

  beforeAll(async () => {
    const now = encodeTimestamp(new Date());
    await suite.server.ctx.db('events').insert([
      { eventName: 'City Run', wordpressEventId: 101, createdAt: now, updatedAt: now },
      { eventName: 'Trail Fest', wordpressEventId: 102, websiteUrl: 'https://old.example.org', createdAt: now, updatedAt: now },
    ]);
  });

  it('events: preview, import with per-line errors and toast, then Reset', async () => {
    const { page } = suite.watched;
    await waitForHydration(page);
    await page.getByRole('heading', { name: 'Bulk Import Events' }).waitFor();
    const text = page.getByTestId('import-text');
    await expect(text.getAttribute('rows')).resolves.toBe('12');
    const importButton = page.getByRole('button', { name: 'Import Data' });
    await expect(importButton.isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('import-sample').textContent()).resolves.toContain('event_id,website,Email');

    await text.fill(
      'event_id,website,Email\n101,cityrun.example.org,"race@cityrun.example.org, Entries@cityrun.example.org"\n999,https://x.example.org,x@x.example.org\n',
    );
    await page.getByTestId('import-preview').waitFor();
    await expect(page.getByTestId('import-preview').getByRole('row').count()).resolves.toBe(3);
    await expect(importButton.isDisabled()).resolves.toBe(false);
    await importButton.click();

    const toast = await toastText(page);
    expect(toast).toContain('Import completed');
    expect(toast).toContain('Updated 1 events, created 2 contacts');
    await expect(page.getByTestId('import-result-updated').textContent()).resolves.toBe('1Events Updated');
    await expect(page.getByTestId('import-result-created').textContent()).resolves.toBe('2Contacts Created');
    await expect(page.getByTestId('import-result-skipped').textContent()).resolves.toBe('1Skipped');
    await expect(page.getByTestId('import-errors').textContent()).resolves.toBe('Line 3: no event has event_id 999');
    const event = await suite.server.ctx.db('events').where({ wordpressEventId: 101 }).first();
    expect(event.websiteUrl).toBe('https://cityrun.example.org');
    const contacts = await suite.server.ctx.db('contacts').where({ entityType: 'event', entityId: event.id }).orderBy('id').select('email');
    expect(contacts.map((c: { email: string }) => c.email)).toEqual(['race@cityrun.example.org', 'Entries@cityrun.example.org']);

    await page.getByRole('button', { name: 'Reset' }).click();
    await expect(text.inputValue()).resolves.toBe('');
    await expect(page.getByTestId('import-results').count()).resolves.toBe(0);
    await expect(importButton.isDisabled()).resolves.toBe(true);

    // A file chosen with the picker (BOM, CRLF) fills the text; importing it again adds nothing.
    await page.getByTestId('import-file').setInputFiles({
      name: 'events.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        '\uFEFFevent_id,website,Email\r\n101,cityrun.example.org,"race@cityrun.example.org; entries@CITYRUN.example.org"\r\n',
      ),
    });
    await expect.poll(() => text.inputValue()).toContain('race@cityrun.example.org');
    await page.getByText('events.csv').waitFor();
    await importButton.click();
    await expect.poll(() => page.getByTestId('import-result-skipped').textContent()).toBe('2Skipped');
    await expect(page.getByTestId('import-result-created').textContent()).resolves.toBe('0Contacts Created');

    // Refused before sending, with the spec's words.
    await page.getByRole('button', { name: 'Reset' }).click();
    await text.fill('event_id,Email\n5,a@b.example.org\n');
    await expect(page.getByTestId('import-preview-problem').textContent()).resolves.toBe('Missing required column: website');
    await importButton.click();
    await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Missing required column: website');
    suite.watched.assertClean();
  });

  it('brands: quoted commas, Clear, and the brands toast', async () => {
    const { page } = suite.watched;
    await page.goto(`${suite.server.baseUrl}/brands/bulk-import`);
    await waitForHydration(page);
    await page.getByRole('heading', { name: 'Bulk Import Brands' }).waitFor();
    const text = page.getByTestId('import-text');
    await expect(text.getAttribute('rows')).resolves.toBe('8');
    await expect(page.getByRole('button', { name: 'Import Data' }).isDisabled()).resolves.toBe(true);
    await text.fill(
      'Brand,First Name,Last Name,Email,Current Job\n"Fleet Feet, Inc.",Jane,Doe,jane@ff.example.com,"Buyer, Shoes"\nbrooks running,John,Smith,john@brooks.example.com,\n BROOKS  RUNNING,Amy,Lee,amy@brooks.example.com,\n',
    );
    await expect(page.getByTestId('import-columns').textContent()).resolves.toBe('BrandFirst NameLast NameEmailCurrent Job');
    await page.getByRole('button', { name: 'Import Data' }).click();
    const toast = await toastText(page);
    expect(toast).toContain('Import completed');
    expect(toast).toContain('Created 2 brands and 3 contacts');
    await expect(page.getByTestId('import-result-brandsCreated').textContent()).resolves.toBe('2Brands Created');
    await expect(page.getByTestId('import-result-contactsCreated').textContent()).resolves.toBe('3Contacts Created');
    const brands = await suite.server.ctx.db('brands').orderBy('id').select('brandName');
    expect(brands.map((b: { brandName: string }) => b.brandName)).toEqual(['Fleet Feet, Inc.', 'brooks running']);
    await expect(suite.server.ctx.db('contacts').where({ email: 'jane@ff.example.com' }).first()).resolves.toMatchObject({
      jobTitle: 'Buyer, Shoes',
    });

    await page.getByRole('button', { name: 'Clear' }).click();
    await expect(text.inputValue()).resolves.toBe('');
    await expect(page.getByTestId('import-results').count()).resolves.toBe(0);
    suite.watched.assertClean();
  });
});
