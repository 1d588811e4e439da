import { useState, type FormEvent } from 'react';
import { messageOf } from '@shared/api-error.js';
import { apiRequest } from '@views/data/http.js';
import { PRODUCT_TITLE } from '@views/components/layout/product.js';
import { Alert, Button, Card } from '@views/components/ui/primitives.js';
import { TextField } from './login-screen.js';

/** Opened from a one-time link an admin sent (its path carries `token`): sets the password, signs in and goes to the dashboard. */
export function SetPasswordScreen({ token }: { token: string }) {
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password') ?? '');
    if (password !== String(form.get('repeat') ?? '')) {
      setProblem('The two passwords do not match');
      return;
    }
    setProblem(null);
    setPending(true);
    try {
      await apiRequest('POST', `/api/set-password/${encodeURIComponent(token)}`, { password });
      window.location.assign('/');
    } catch (error) {
      setProblem(messageOf(error, 'The password could not be set'));
      setPending(false);
    }
  }

  return (
    <div className="auth-page">
      <Card className="auth-card">
        <p className="auth-title">{PRODUCT_TITLE}</p>
        <h1>Set your password</h1>
        <p className="muted">At least 8 characters. The link works once.</p>
        {problem && <Alert variant="destructive">{problem}</Alert>}
        {/* Posted: a click before hydration must not put the password in the URL (the server refuses the post). */}
        <form method="post" onSubmit={(event) => void submit(event)} noValidate>
          <TextField name="password" label="New password" type="password" autoComplete="new-password" required />
          <TextField name="repeat" label="Repeat password" type="password" autoComplete="new-password" required />
          <Button type="submit" disabled={pending} className="btn-block">
            {pending ? 'Saving...' : 'Set password'}
          </Button>
        </form>
      </Card>
    </div>
  );
}
