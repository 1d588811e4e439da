import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PasskeyView, TwoFactorStatus } from '@shared/schemas/auth.js';
import * as accountPage from '@views/pages/settings/account-page.js';
import { renderPage } from './records-render.js';

const OFF: TwoFactorStatus = { totpEnabled: false, recoveryCodesLeft: 0, required: false, setupRequired: false };
const PASSKEYS: PasskeyView[] = [
  { id: 3, name: 'Work laptop', createdAt: '2026-11-01T00:00:00.000Z', lastUsedAt: null },
  { id: 5, name: 'Phone', createdAt: '2026-11-02T00:00:00.000Z', lastUsedAt: '2026-11-20T00:00:00.000Z' },
];

/** Records the calls the card makes and answers each with an empty success. */
function server() {
  const calls: Array<[string, string, unknown]> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      calls.push([init.method ?? 'GET', url, init.body ? JSON.parse(String(init.body)) : undefined]);
      if (init.method === 'DELETE') return new Response(null, { status: 204 });
      const body = url.startsWith('/api/me/passkeys/') ? { ...PASSKEYS[1], name: 'Old phone' } : url === '/api/me/passkeys' ? PASSKEYS : {};
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

function renderAccount(passkeys: PasskeyView[]) {
  renderPage({
    path: '/settings/account',
    url: '/settings/account',
    Component: accountPage.Component,
    data: { sessions: [], twoFactor: OFF, signIns: [], passkeys },
    loader: () => ({ sessions: [], twoFactor: OFF, signIns: [], passkeys }),
  });
}

describe('passkeys on the account page', () => {
  it('lists my passkeys by name, renames one in place and removes one', async () => {
    const calls = server();
    renderAccount(PASSKEYS);
    const list = await screen.findByRole('list', { name: 'Passkeys' });
    expect(within(list).getByText('Work laptop')).toBeTruthy();
    expect(within(list).getByText(/never used/)).toBeTruthy();

    fireEvent.click(within(list).getByRole('button', { name: 'Rename Phone' }));
    fireEvent.change(screen.getByLabelText('New name for Phone'), { target: { value: 'Old phone' } });
    fireEvent.click(within(list).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls).toContainEqual(['PATCH', '/api/me/passkeys/5', { name: 'Old phone' }]));

    fireEvent.click(within(list).getByRole('button', { name: 'Remove Work laptop' }));
    await waitFor(() => expect(calls).toContainEqual(['DELETE', '/api/me/passkeys/3', undefined]));
  });

  it('says passkeys are off when the site has no address, with no add button', async () => {
    server();
    renderAccount([]);
    expect(await screen.findByText(/Passkeys are off on this site/)).toBeTruthy();
    expect(screen.getByText('No passkeys yet')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
  });
});
