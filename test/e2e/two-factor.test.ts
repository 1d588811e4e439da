import { describe, expect, it } from 'vitest';
import { setRequireTwoFactor } from '@services/auth/security-settings.js';
import { totpCode, totpStepAt } from '@services/auth/totp.js';
import { cliActor } from '@services/context.js';
import { browserSuite, createStaffUser, openPage, signIn, waitForHydration } from './harness.js';

describe('two-factor sign-in in the browser (real Chromium)', () => {
  const suite = browserSuite();

  it('sets up an authenticator app on the account page, then signs in with the password and a code', async () => {
    const credentials = await createStaffUser(suite.server, 'two.factor@example.org');
    const watched = await openPage(suite.browser);
    const { page } = watched;
    await signIn(page, suite.server.baseUrl, credentials, '/settings/account');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    // The QR code is a data: image: it must load under the CSP.
    const qr = page.getByRole('img', { name: 'QR code of the authenticator secret' });
    await qr.waitFor();
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const secret = (await page.getByLabel('Secret').textContent())!.replace(/\s/g, '');
    await page.getByLabel(/Code from the app/).fill(totpCode(secret, totpStepAt(Date.now())));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByRole('status', { name: 'Recovery codes' });
    await codes.waitFor();
    expect(await codes.locator('code').count()).toBe(10);
    await page.getByRole('button', { name: 'I saved them' }).click();
    await page.getByText(/On: signing in asks for a code/).waitFor();
    watched.assertClean();

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await waitForHydration(page);
    await page.getByLabel('Email').fill(credentials.email);
    await page.getByLabel('Password').fill(credentials.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    const code = page.getByLabel('Authenticator code or recovery code');
    await code.waitFor();
    // The step after the one the set-up used: within the ±1 window, and never used.
    await code.fill(totpCode(secret, totpStepAt(Date.now()) + 1));
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    // The one refusal was the 401 asking for the code.
    watched.assertClean({ expectedHttpStatuses: [401] });
    await watched.close();
  });

  it('sends a user without a second factor to set one up when an admin requires it, with a clean console', async () => {
    await setRequireTwoFactor(suite.server.ctx, cliActor(), { requireTwoFactor: true });
    const credentials = await createStaffUser(suite.server, 'held@example.org');
    const watched = await openPage(suite.browser);
    const { page } = watched;
    await signIn(page, suite.server.baseUrl, credentials, '/contacts');
    expect(new URL(page.url()).pathname).toBe('/settings/account');
    await page.getByText('An admin requires two-factor sign-in for every account').waitFor();
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).waitFor();
    watched.assertClean();
    await watched.close();
    await setRequireTwoFactor(suite.server.ctx, cliActor(), { requireTwoFactor: false });
  });
});
