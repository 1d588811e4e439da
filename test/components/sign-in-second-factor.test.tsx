import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoginScreen } from '@views/pages/auth/login-screen.js';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

describe('sign-in with a second factor', () => {
  it('asks for the code after a right password and sends all three again', async () => {
    const bodies: unknown[] = [];
    const answers = [
      json(401, { code: 'second_factor_required', message: 'Enter the code from your authenticator app (or a recovery code).' }),
      json(401, { code: 'invalid_second_factor', message: 'That code is not right, or it was already used.' }),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        bodies.push(JSON.parse(String(init.body)));
        return answers.shift()!;
      }),
    );
    render(<LoginScreen />);
    expect(screen.queryByLabelText('Authenticator code or recovery code')).toBeNull();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'a@example.org' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pw' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    const code = await screen.findByLabelText('Authenticator code or recovery code');
    expect(screen.getByRole('alert').textContent).toContain('Enter the code from your authenticator app');
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('That code is not right'));
    expect(bodies).toEqual([
      { email: 'a@example.org', password: 'pw' },
      { email: 'a@example.org', password: 'pw', code: '123456' },
    ]);
  });

  it('shows the code field at once when a sign-in posted without JavaScript was asked for it', () => {
    render(<LoginScreen askCode refusal="Enter the code from your authenticator app (or a recovery code)." />);
    expect(screen.getByLabelText('Authenticator code or recovery code')).toBeTruthy();
  });
});

describe('Forgot password?', () => {
  it('asks for the address and says a link is on its way, whatever the address', async () => {
    const calls: Array<[string, unknown]> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push([url, JSON.parse(String(init.body))]);
        return json(202, { resetByEmail: true });
      }),
    );
    render(<LoginScreen resetByEmail />);
    fireEvent.click(screen.getByRole('button', { name: 'Forgot password?' }));
    fireEvent.change(await screen.findByLabelText(/Email/), { target: { value: 'me@example.org' } });
    fireEvent.click(screen.getByRole('button', { name: 'Email me a link' }));
    expect((await screen.findByRole('status')).textContent).toContain('If an account uses me@example.org, an email is on its way');
    expect(calls).toEqual([['/api/password-reset', { email: 'me@example.org' }]]);
    fireEvent.click(screen.getByRole('button', { name: 'Back to sign in' }));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeTruthy();
  });

  it('says to ask an admin when the site sends no reset links', async () => {
    render(<LoginScreen resetByEmail={false} />);
    fireEvent.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect((await screen.findByText(/ask an admin for a link to set a new password/)).textContent).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Email me a link' })).toBeNull();
  });
});
