import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { avatarInitials, MainLayout, NAV_ITEMS } from '@views/components/layout/main-layout.js';
import { toast, Toaster, TOAST_DURATION_MS } from '@views/components/ui/toast.js';
import { LoginScreen } from '@views/pages/auth/login-screen.js';
import { StatCards } from '@views/pages/dashboard/stat-cards.js';
import { HttpError, messageOf } from '@shared/api-error.js';
import { apiRequest } from '@views/data/http.js';

function inRouter(element: React.ReactNode) {
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: ['/'] });
  return render(<RouterProvider router={router} />);
}

afterEach(() => vi.unstubAllGlobals());

describe('login screen', () => {
  it('validates in the browser before calling the server', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    render(<LoginScreen />);
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid email address')).toBeTruthy();
    expect(screen.getByText('Too small: expected string to have >=1 characters')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("reads 'Signing in...' while pending and shows the server's message in a destructive alert", async () => {
    let answer!: (response: Response) => void;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    render(<LoginScreen />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'a@example.org' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pw' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    const pending = await screen.findByRole('button', { name: 'Signing in...' });
    expect((pending as HTMLButtonElement).disabled).toBe(true);
    await act(async () => answer(new Response(JSON.stringify({ message: 'Invalid email or password', code: 'x' }), { status: 401 })));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Invalid email or password');
    expect(alert.className).toContain('alert-destructive');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy();
  });

  it("falls back to 'Login failed' when the server gives no message", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 502, statusText: 'Bad Gateway' })),
    );
    render(<LoginScreen />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'a@example.org' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pw' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Login failed');
  });
});

describe('request helper', () => {
  it('turns a non-2xx answer into "status: body text", or the status text when the body is empty', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"message":"Nope"}', { status: 409, statusText: 'Conflict' })),
    );
    await expect(apiRequest('DELETE', '/api/x')).rejects.toThrow('409: {"message":"Nope"}');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 503, statusText: 'Service Unavailable' })),
    );
    await expect(apiRequest('GET', '/api/x')).rejects.toThrow('503: Service Unavailable');
    expect(messageOf(new HttpError(400, '{"message":"Event name is required"}', 'Bad Request'), 'fallback')).toBe('Event name is required');
  });

  it('sends a JSON content type and body only when there is a body, always with credentials', async () => {
    const fetchMock = vi.fn(async () => new Response('{"ok":true}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await apiRequest('GET', '/api/a');
    await apiRequest('POST', '/api/b', { x: 1 });
    const [, getInit] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    const [, postInit] = fetchMock.mock.calls[1] as unknown as [string, RequestInit];
    expect(getInit.body).toBeUndefined();
    expect((getInit.headers as Record<string, string>)['Content-Type']).toBeUndefined();
    expect(getInit.credentials).toBe('include');
    expect(postInit.body).toBe('{"x":1}');
    expect((postInit.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });
});

describe('main layout', () => {
  const user = {
    id: 1,
    email: 'jo.runner@example.org',
    firstName: 'Jo',
    lastName: 'Runner',
    role: 'staff' as const,
    isActive: true,
    createdAt: '',
    lastLogin: null,
  };

  it('shows the title, the email, a two-letter avatar, logout and the eight navigation entries', async () => {
    inRouter(
      <MainLayout user={user} theme="system">
        <p>content</p>
      </MainLayout>,
    );
    expect(await screen.findByText('Pacer CRM')).toBeTruthy();
    expect(screen.getByText('jo.runner@example.org')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Account menu of jo.runner@example.org, JO' }).textContent).toBe('JO');
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const links = [...nav.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual(NAV_ITEMS.map((item) => [item.label, item.to]));
    expect(avatarInitials('x@y.z')).toBe('X@');
  });

  it('marks the current section (sub-pages too, the dashboard only at /) and navigates in the app', async () => {
    const router = createMemoryRouter(
      [
        {
          path: '*',
          element: (
            <MainLayout user={user} theme="system">
              <p>content</p>
            </MainLayout>
          ),
        },
      ],
      { initialEntries: ['/events/12/edit'] },
    );
    render(<RouterProvider router={router} />);
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const current = () => [...nav.querySelectorAll('a[aria-current="page"]')].map((a) => a.textContent);
    expect(current()).toEqual(['Events']);
    expect(nav.querySelector('a.active')?.textContent).toBe('Events');
    // fireEvent answers false when the click was taken over by the router instead of loading a page.
    expect(fireEvent.click(screen.getByRole('link', { name: 'Dashboard' }))).toBe(false);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    await waitFor(() => expect(current()).toEqual(['Dashboard']));
    expect(fireEvent.click(screen.getByRole('link', { name: 'Run Clubs' }), { metaKey: true })).toBe(true);
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('toasts', () => {
  it('shows one toast at a time and dismisses it after 5000 ms', async () => {
    render(<Toaster />);
    // The toast's view loads after the page has shown (it is not part of the first load).
    await screen.findByRole('region', { name: 'Notifications (F8)' });
    vi.useFakeTimers();
    try {
      act(() => toast({ title: 'Brand created successfully' }));
      act(() => toast({ title: 'Failed to delete brand', description: 'Server says no', variant: 'destructive' }));
      expect(screen.queryByText('Brand created successfully')).toBeNull();
      expect(screen.getByText('Failed to delete brand')).toBeTruthy();
      expect(screen.getAllByTestId('toast')).toHaveLength(1);
      // F8 moves focus to the notifications region.
      expect(screen.getByRole('region', { name: 'Notifications (F8)' })).toBeTruthy();
      expect(screen.getByTestId('toast').className).toContain('toast-destructive');
      await act(async () => {
        vi.advanceTimersByTime(TOAST_DURATION_MS + 500);
      });
      await vi.runOnlyPendingTimersAsync();
    } finally {
      vi.useRealTimers();
    }
    await waitFor(() => expect(screen.queryByText('Failed to delete brand')).toBeNull());
  });
});

describe('dashboard cards', () => {
  it('shows placeholders while loading and counts linking to each list', async () => {
    const view = inRouter(<StatCards stats={null} />);
    expect((await screen.findAllByRole('link')).length).toBe(6);
    expect(view.container.querySelectorAll('.skeleton')).toHaveLength(6);
    view.unmount();
    inRouter(<StatCards stats={{ events: 12, professionals: 3, runClubs: 4, brands: 5, media: 6, influencers: 7 }} />);
    const events = await screen.findByTestId('stat-events');
    expect(events.getAttribute('href')).toBe('/events');
    expect(events.textContent).toContain('12');
    expect(screen.getByTestId('stat-runClubs').getAttribute('href')).toBe('/runclubs');
  });
});
