import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicUser } from '@shared/schemas/auth.js';
import * as usersPage from '@views/pages/settings/users-page.js';
import { renderPage } from './records-render.js';

const user = (overrides: Partial<PublicUser>): PublicUser => ({
  id: 2,
  email: 'ivy@example.org',
  firstName: 'Ivy',
  lastName: 'Vee',
  role: 'staff',
  isActive: true,
  createdAt: '2026-11-01T00:00:00.000Z',
  lastLogin: null,
  ...overrides,
});

const USERS = [
  user({ id: 2, email: 'invited@example.org', lastLogin: null }),
  user({ id: 3, email: 'active@example.org', lastLogin: '2026-11-20T01:00:00.000Z' }),
  user({ id: 4, email: 'gone@example.org', isActive: false, lastLogin: '2026-11-02T01:00:00.000Z' }),
];

/** Records each PUT to /api/users/:id, answering 200. */
function userServer() {
  const puts: Array<{ url: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      if (init.method === 'PUT') puts.push({ url, body: JSON.parse(String(init.body)) });
      return new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return puts;
}

const rowOf = (email: string) => screen.getByRole('cell', { name: email }).closest('tr')!;
const renderUsers = () =>
  renderPage({
    path: '/settings/users',
    url: '/settings/users',
    Component: usersPage.Component,
    data: { users: USERS, security: { requireTwoFactor: false } },
    role: 'admin',
  });

afterEach(() => vi.unstubAllGlobals());

describe('the Users page', () => {
  it('shows a user who never signed in as Invited, not Active', async () => {
    renderUsers();
    await screen.findByRole('table', { name: 'Users' });
    expect(within(rowOf('invited@example.org')).getByText('Invited')).toBeTruthy();
    expect(within(rowOf('invited@example.org')).queryByText('Active')).toBeNull();
    expect(within(rowOf('active@example.org')).getByText('Active')).toBeTruthy();
    expect(within(rowOf('gone@example.org')).getByText('Inactive')).toBeTruthy();
  });

  it('asks before changing a role, and changes nothing on Cancel', async () => {
    const puts = userServer();
    renderUsers();
    const select = await screen.findByRole('combobox', { name: 'Role of active@example.org' });
    fireEvent.change(select, { target: { value: 'admin' } });
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('Change the role of active@example.org from Staff to Admin?');
    expect((select as HTMLSelectElement).value).toBe('staff');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(puts).toEqual([]);

    fireEvent.change(select, { target: { value: 'admin' } });
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Change role' }));
    await waitFor(() => expect(puts).toEqual([{ url: '/api/users/3', body: { role: 'admin' } }]));
  });

  it('asks before deactivating a user', async () => {
    const puts = userServer();
    renderUsers();
    fireEvent.click(await screen.findByRole('button', { name: 'Deactivate active@example.org' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('Deactivate active@example.org?');
    expect(puts).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(puts).toEqual([{ url: '/api/users/3', body: { isActive: false } }]));
  });

  it('asks before resetting a user’s two-factor sign-in, then resets it', async () => {
    const posts: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        if (init.method === 'POST') posts.push(url);
        return new Response(JSON.stringify({ email: 'active@example.org', hadSecondFactor: true }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        });
      }),
    );
    renderUsers();
    fireEvent.click(await screen.findByRole('button', { name: 'Reset two-factor sign-in of active@example.org' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('Remove the authenticator app and recovery codes of active@example.org?');
    expect(posts).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset two-factor' }));
    await waitFor(() => expect(posts).toEqual(['/api/users/3/reset-2fa']));
    expect(await screen.findByText('Two-factor sign-in reset')).toBeTruthy();
  });

  it('shows a user’s sign-in history and turns the two-factor requirement on', async () => {
    const puts: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        if (init.method === 'PUT') puts.push([url, JSON.parse(String(init.body))]);
        const body = url.endsWith('/sign-ins')
          ? [
              {
                id: 1,
                occurredAt: '2026-11-20T01:00:00.000Z',
                kind: 'sign_in',
                succeeded: false,
                detail: 'password',
                ip: '10.0.0.7',
                browser: 'Firefox 133',
                os: 'Windows 10',
                by: null,
              },
            ]
          : { requireTwoFactor: true };
        return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    renderUsers();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign-in history of active@example.org' }));
    const list = await screen.findByRole('list', { name: 'Sign-in history of active@example.org' });
    expect(list.textContent).toContain('Sign-in failed (wrong password)');
    expect(list.textContent).toContain('10.0.0.7');
    expect(list.textContent).toContain('Firefox 133 on Windows 10');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Require two-factor sign-in for everyone' }));
    await waitFor(() => expect(puts).toEqual([['/api/security', { requireTwoFactor: true }]]));
  });
});
