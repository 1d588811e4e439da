import { useState, type FormEvent } from 'react';
import { useLoaderData, useRevalidator } from 'react-router';
import { messageOf } from '@shared/api-error.js';
import { PACER_VERSION } from '@shared/release.js';
import { ROLE_LABELS } from '@shared/roles.js';
import type { PasskeyView, SessionView, SignInEventView, TwoFactorStatus } from '@shared/schemas/auth.js';
import { dataSource, gated } from '@views/data/source.js';
import { apiRequest } from '@views/data/http.js';
import { useFormat } from '@views/hooks/use-format.js';
import { useSession } from '@views/hooks/use-session.js';
import { Badge, Button, Card, CardHeader, Input, Label } from '@views/components/ui/primitives.js';
import { toast } from '@views/components/ui/toast.js';
import { SignInHistoryList } from './sign-in-history.js';
import { PasskeysCard } from './passkeys-card.js';
import { TwoFactorCard } from './two-factor-card.js';

export const loader = gated(async ({ context }) => {
  const source = dataSource(context);
  const [sessions, twoFactor, signIns, passkeys] = await Promise.all([
    source.mySessions(),
    source.myTwoFactor(),
    source.mySignIns(),
    source.myPasskeys(),
  ]);
  return { sessions, twoFactor, signIns, passkeys };
});

/** Posts a small form to /api and reports it in a toast; `after` runs on success (reset the form, reload). */
function useApiForm(method: 'PUT' | 'POST', url: string, fields: readonly string[], success: string, after: () => Promise<void> | void) {
  const [pending, setPending] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setPending(true);
    try {
      await apiRequest(method, url, Object.fromEntries(fields.map((name) => [name, String(form.get(name) ?? '')])));
      toast({ title: success });
      formElement.reset();
      await after();
    } catch (error) {
      toast({ title: 'Not saved', description: messageOf(error, 'Not saved'), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  }
  return { pending, onSubmit: (event: FormEvent<HTMLFormElement>) => void submit(event) };
}

function SessionsCard({ sessions }: { sessions: SessionView[] }) {
  const format = useFormat();
  const revalidator = useRevalidator();
  async function end(method: 'DELETE' | 'POST', url: string, done: string) {
    try {
      await apiRequest(method, url);
      toast({ title: done });
      await revalidator.revalidate();
    } catch (error) {
      toast({ title: 'Could not sign out', description: messageOf(error, 'Could not sign out'), variant: 'destructive' });
    }
  }
  return (
    <Card>
      <CardHeader
        title="Active sessions"
        actions={
          sessions.length > 1 && (
            <Button variant="outline" onClick={() => void end('POST', '/api/sessions/sign-out-others', 'Signed out of all other sessions')}>
              Sign out of all other sessions
            </Button>
          )
        }
      />
      <ul className="attachments-list" aria-label="Active sessions">
        {sessions.map((session) => (
          <li key={session.id} className="attachments-row">
            <div className="attachments-contact-main">
              <span className="attachments-contact-name">
                {session.browser} on {session.os}
              </span>
              <span className="muted">
                {session.ip} · signed in {format.dateTime(session.signedInAt)} · last seen {format.dateTime(session.lastSeenAt)}
              </span>
            </div>
            {session.current ? (
              <Badge tone="info">This session</Badge>
            ) : (
              <Button
                variant="outline"
                className="btn-sm"
                onClick={() => void end('DELETE', `/api/sessions/${session.id}`, 'Session signed out')}
              >
                Sign out
              </Button>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}

export function Component() {
  const { sessions, twoFactor, signIns, passkeys } = useLoaderData() as {
    passkeys: PasskeyView[];
    sessions: SessionView[];
    twoFactor: TwoFactorStatus;
    signIns: SignInEventView[];
  };
  const { user } = useSession();
  const revalidator = useRevalidator();
  // The name lives in the root's session data, which is not revalidated: reload the page to show the new one.
  const nameForm = useApiForm('PUT', '/api/account', ['firstName', 'lastName'], 'Name changed', () => window.location.reload());
  const passwordForm = useApiForm('POST', '/api/account/password', ['currentPassword', 'newPassword'], 'Password changed', () =>
    revalidator.revalidate(),
  );
  if (!user) return null;
  return (
    <div className="page settings-page">
      <div className="page-header">
        <h1>Account</h1>
      </div>
      <p className="muted">
        {user.email} · {ROLE_LABELS[user.role]}
      </p>
      <Card>
        <CardHeader title="Name" />
        <form className="settings-form" onSubmit={nameForm.onSubmit}>
          <div className="field">
            <Label htmlFor="account-first" required>
              First name
            </Label>
            <Input id="account-first" name="firstName" defaultValue={user.firstName} required />
          </div>
          <div className="field">
            <Label htmlFor="account-last" required>
              Last name
            </Label>
            <Input id="account-last" name="lastName" defaultValue={user.lastName} required />
          </div>
          <Button type="submit" disabled={nameForm.pending}>
            Save name
          </Button>
        </form>
      </Card>
      <Card>
        <CardHeader title="Password" />
        <p className="muted">Changing your password signs you out of every other session.</p>
        <form className="settings-form" onSubmit={passwordForm.onSubmit}>
          <div className="field">
            <Label htmlFor="account-current" required>
              Current password
            </Label>
            <Input id="account-current" name="currentPassword" type="password" autoComplete="current-password" required />
          </div>
          <div className="field">
            <Label htmlFor="account-new" required>
              New password
            </Label>
            <Input id="account-new" name="newPassword" type="password" autoComplete="new-password" required />
          </div>
          <Button type="submit" disabled={passwordForm.pending}>
            Change password
          </Button>
        </form>
      </Card>
      <TwoFactorCard status={twoFactor} />
      <PasskeysCard passkeys={passkeys} />
      <SessionsCard sessions={sessions} />
      <Card>
        <CardHeader title="Sign-in history" />
        <SignInHistoryList events={signIns} label="Sign-in history" />
      </Card>
      {/* The release, for a report to whoever runs the install (they see it in /healthz and `pacer --version`). */}
      <p className="muted">{`Pacer CRM ${PACER_VERSION}`}</p>
    </div>
  );
}
