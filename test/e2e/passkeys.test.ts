import type { Browser, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffUser, launchBrowser, openPage, startServer, waitForHydration, type E2EServer } from './harness.js';

/**
 * Passkeys in real Chromium (issue 35 point 2), with the DevTools Protocol's virtual authenticator standing in for
 * a fingerprint reader: discoverable credentials and user verification, so the browser's WebAuthn calls, our
 * base64url conversions and the server's verification (@simplewebauthn/server) all run for real. WebAuthn needs a
 * secure context: http://localhost is one, so the site is opened (and its APP_URL set) as localhost.
 */
describe('passkeys in the browser (real Chromium, virtual authenticator)', () => {
  let server: E2EServer;
  let browser: Browser;
  let baseUrl: string;

  beforeAll(async () => {
    server = await startServer();
    baseUrl = server.baseUrl.replace('127.0.0.1', 'localhost');
    // The relying party is the site's public address; the port is only known once the server listens.
    server.ctx.config.appUrl = baseUrl;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return { cdp, authenticatorId };
  }

  async function signInWithPassword(page: Page, credentials: { email: string; password: string }, path: string) {
    await page.goto(baseUrl + path);
    await waitForHydration(page);
    await page.getByLabel('Email').fill(credentials.email);
    await page.getByLabel('Password').fill(credentials.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  }

  it('adds a passkey on the account page, signs out, and signs in with it alone; the console stays clean', async () => {
    const credentials = await createStaffUser(server, 'passkey.user@example.org');
    const watched = await openPage(browser);
    const { page } = watched;
    const { cdp, authenticatorId } = await virtualAuthenticator(page);

    await signInWithPassword(page, credentials, '/settings/account');
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    await waitForHydration(page);
    await page.getByLabel('Passkey name').fill('Work laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const list = page.getByRole('list', { name: 'Passkeys' });
    await list.getByText('Work laptop').waitFor();
    const { credentials: held } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(held).toHaveLength(1);
    expect(held[0]!.isResidentCredential).toBe(true);
    expect(held[0]!.rpId).toBe('localhost');

    // Renamed in place.
    await page.getByRole('button', { name: 'Rename Work laptop' }).click();
    await page.getByLabel('New name for Work laptop').fill('Laptop (Touch ID)');
    await list.getByRole('button', { name: 'Save', exact: true }).click();
    await list.getByText('Laptop (Touch ID)').waitFor();
    watched.assertClean();

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    await page.goto(baseUrl + '/settings/account');
    await page.getByText('Signed in with a passkey').first().waitFor();
    // The authenticator's counter moved forward and the server kept it.
    const { credentials: after } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(after[0]!.signCount).toBeGreaterThan(held[0]!.signCount);
    watched.assertClean();
    await watched.close();
  });

  it('offers the passkey in place of the authenticator code after the password', async () => {
    const credentials = await createStaffUser(server, 'passkey.second@example.org');
    const watched = await openPage(browser);
    const { page } = watched;
    await virtualAuthenticator(page);
    await signInWithPassword(page, credentials, '/settings/account');
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    await waitForHydration(page);
    await page.getByLabel('Passkey name').fill('Key');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('list', { name: 'Passkeys' }).getByText('Key').waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();

    // The password alone is not enough now: the code step offers the passkey.
    await signInWithPassword(page, credentials, '/');
    await page.getByLabel('Authenticator code or recovery code').waitFor();
    await page.getByRole('button', { name: 'Use a passkey instead' }).click();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    // The one refusal was the 401 asking for the second factor.
    watched.assertClean({ expectedHttpStatuses: [401] });
    await watched.close();
  });
});
