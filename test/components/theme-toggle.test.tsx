import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ThemeToggle } from '@views/components/layout/theme-toggle.js';
import { Toaster } from '@views/components/ui/toast.js';

afterEach(() => {
  vi.unstubAllGlobals();
  delete document.documentElement.dataset.theme;
});

/** Answers each PUT when the test says so, recording the values in the order the server received them. */
function preferenceServer(status = 200) {
  const received: unknown[] = [];
  const pending: Array<() => void> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      expect([init.method, url]).toEqual(['PUT', '/api/preferences/theme']);
      const { value } = JSON.parse(String(init.body)) as { value: unknown };
      received.push(value);
      await new Promise<void>((resolve) => pending.push(resolve));
      const body = status === 200 ? { name: 'theme', value } : { message: 'Database unavailable' };
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return { received, answerNext: () => pending.shift()?.() };
}

const toggle = () => screen.getByRole('button', { name: /^Theme: / });

describe('ThemeToggle', () => {
  it('shows each choice at once and saves it as the user preference, one save after another, in click order', async () => {
    const server = preferenceServer();
    render(<ThemeToggle initial="system" />);
    fireEvent.click(toggle());
    expect(document.documentElement.dataset.theme).toBe('light');
    fireEvent.click(toggle());
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(toggle().getAttribute('aria-label')).toBe('Theme: Dark. Switch to System');
    expect(document.cookie).toContain('theme=dark');

    // The second save waits for the first, so the last click is the one stored.
    await waitFor(() => expect(server.received).toEqual(['light']));
    server.answerNext();
    await waitFor(() => expect(server.received).toEqual(['light', 'dark']));
    server.answerNext();
  });

  it('says so when the choice could not be saved, keeping it on screen', async () => {
    const server = preferenceServer(503);
    render(
      <>
        <ThemeToggle initial="dark" />
        <Toaster />
      </>,
    );
    fireEvent.click(toggle());
    expect(document.documentElement.dataset.theme).toBeUndefined();
    await waitFor(() => expect(server.received).toEqual(['system']));
    server.answerNext();
    const toast = await screen.findByTestId('toast');
    await waitFor(() => expect(toast.textContent).toContain('Could not save the theme'));
    expect(toast.textContent).toContain('Database unavailable');
    expect(toggle().getAttribute('aria-label')).toBe('Theme: System. Switch to Light');
  });
});
