import { describe, expect, it } from 'vitest';
import { createUser } from '@services/users/service.js';
import { TEST_PASSWORD } from '../helpers/app.js';
import { browserSuite, openPage, signIn } from './harness.js';

describe('Settings → API tokens (real Chromium)', () => {
  const suite = browserSuite();

  it('an admin creates a token, sees it once, uses it, and revokes it', async () => {
    await createUser(suite.server.ctx, {
      email: 'admin@example.org',
      password: TEST_PASSWORD,
      firstName: 'Ada',
      lastName: 'Admin',
      role: 'admin',
    });
    const watched = await openPage(suite.browser);
    const { page } = watched;
    await signIn(page, suite.server.baseUrl, { email: 'admin@example.org', password: TEST_PASSWORD }, '/settings/api-tokens');
    await page.getByText('No API tokens yet').waitFor();
    await page.getByLabel('Name').fill('Website forms');
    await page.getByLabel('Role').selectOption('staff');
    await page.getByRole('button', { name: 'Create token' }).click();
    const field = page.getByRole('textbox', { name: 'API token' });
    await field.waitFor();
    const token = await field.inputValue();
    expect(token).toMatch(/^pcr_[A-Za-z0-9_-]{43}$/);
    await page.getByRole('table', { name: 'API tokens' }).getByText('Website forms').waitFor();

    const used = await fetch(`${suite.server.baseUrl}/api/stats`, { headers: { Authorization: `Bearer ${token}` } });
    expect(used.status).toBe(200);
    await page.reload();
    await page.getByText(/from (::ffff:)?127\.0\.0\.1/).waitFor();
    // Shown once: after the reload the token is nowhere on the page.
    expect(await page.content()).not.toContain(token);

    await page.getByRole('button', { name: 'Revoke Website forms' }).click();
    await page.getByRole('table', { name: 'API tokens' }).getByText('Revoked').waitFor();
    expect((await fetch(`${suite.server.baseUrl}/api/stats`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(401);
    watched.assertClean();
    await watched.close();
  });
});
