import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TwoFactorStatus } from '@shared/schemas/auth.js';
import * as accountPage from '@views/pages/settings/account-page.js';
import { renderPage } from './records-render.js';

const OFF: TwoFactorStatus = { totpEnabled: false, recoveryCodesLeft: 0, required: false, setupRequired: false };
const CODES = [
  'abcde-fghjk',
  'mnpqr-stuvw',
  'xyz23-45678',
  'aaaaa-bbbbb',
  'ccccc-ddddd',
  'eeeee-fffff',
  'ggggg-hhhhh',
  'jjjjj-kkkkk',
  'mmmmm-nnnnn',
  'ppppp-qqqqq',
];

function renderAccount(twoFactor: TwoFactorStatus) {
  renderPage({
    path: '/settings/account',
    url: '/settings/account',
    Component: accountPage.Component,
    data: { sessions: [], twoFactor, signIns: [], passkeys: [] },
  });
}

/** Answers the set-up and confirmation calls, recording what was sent. */
function totpServer() {
  const calls: Array<[string, string, unknown]> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      calls.push([init.method ?? 'GET', url, init.body ? JSON.parse(String(init.body)) : undefined]);
      const body =
        url === '/api/me/totp'
          ? {
              secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
              otpauthUrl: 'otpauth://totp/x',
              qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
            }
          : url === '/api/me/totp/confirm'
            ? { recoveryCodes: CODES }
            : {};
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('two-factor sign-in on the account page', () => {
  it('sets up an authenticator app: QR code and secret, a first code, then the recovery codes once', async () => {
    const calls = totpServer();
    renderAccount(OFF);
    fireEvent.click(await screen.findByRole('button', { name: 'Set up two-factor sign-in' }));
    const qr = await screen.findByRole('img', { name: 'QR code of the authenticator secret' });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
    expect(screen.getByLabelText('Secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    fireEvent.change(screen.getByLabelText(/Code from the app/), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    const shown = await screen.findByRole('status', { name: 'Recovery codes' });
    for (const code of CODES) expect(within(shown).getByText(code)).toBeTruthy();
    expect(calls.filter(([method]) => method === 'POST')).toEqual([
      ['POST', '/api/me/totp', {}],
      ['POST', '/api/me/totp/confirm', { code: '123456' }],
    ]);
  });

  it('says an admin requires it while this session is held', async () => {
    totpServer();
    renderAccount({ ...OFF, required: true, setupRequired: true });
    expect((await screen.findByRole('alert')).textContent).toContain('An admin requires two-factor sign-in');
  });

  it('turns off with the password and a code', async () => {
    const calls = totpServer();
    renderAccount({ totpEnabled: true, recoveryCodesLeft: 7, required: false, setupRequired: false });
    expect(await screen.findByText(/7 of 10 recovery codes left/)).toBeTruthy();
    const form = screen.getByRole('form', { name: 'Turn off two-factor sign-in' });
    fireEvent.change(within(form).getByLabelText(/Password/), { target: { value: 'secret password' } });
    fireEvent.change(within(form).getByLabelText(/Code from the app/), { target: { value: '654321' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(calls).toContainEqual(['DELETE', '/api/me/totp', { password: 'secret password', code: '654321' }]));
  });
});
