import { useState, type FormEvent } from 'react';
import { useRevalidator } from 'react-router';
import type { TotpEnrolment, TwoFactorStatus } from '@shared/schemas/auth.js';
import { apiRequest } from '@views/data/http.js';
import { usePendingAction } from '@views/hooks/use-pending-action.js';
import { Alert, Button, Card, CardHeader, Input, Label } from '@views/components/ui/primitives.js';
import { toast } from '@views/components/ui/toast.js';

/** The values of a form's fields by name. */
const fieldsOf = (event: FormEvent<HTMLFormElement>, names: readonly string[]) => {
  const form = new FormData(event.currentTarget);
  return Object.fromEntries(names.map((name) => [name, String(form.get(name) ?? '')]));
};

/** The QR code the server drew (SVG), as an image: nothing of it runs, and the CSP allows data: images. */
const qrImage = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

function CodeField({ id, label = 'Code from the app' }: { id: string; label?: string }) {
  return (
    <div className="field">
      <Label htmlFor={id} required>
        {label}
      </Label>
      <Input id={id} name="code" inputMode="numeric" autoComplete="one-time-code" required />
    </div>
  );
}

/** Ten recovery codes, shown this once. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div role="status" aria-label="Recovery codes">
      <p>
        Two-factor sign-in is on. Keep these recovery codes somewhere safe: each one signs you in once in place of a code, if you lose your
        phone. They are shown only now.
      </p>
      <ul className="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="settings-link-row">
        <Button
          variant="outline"
          onClick={() => void navigator.clipboard?.writeText(codes.join('\n')).then(() => toast({ title: 'Codes copied' }))}
        >
          Copy
        </Button>
        <Button onClick={onDone}>I saved them</Button>
      </div>
    </div>
  );
}

/**
 * /settings/account: two-factor sign-in with an authenticator app. Set-up shows a QR code and the secret, a first
 * code confirms it and the recovery codes are shown once; turning it off takes the password and a code.
 */
export function TwoFactorCard({ status }: { status: TwoFactorStatus }) {
  const revalidator = useRevalidator();
  const { pending, run } = usePendingAction();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  const start = () =>
    run('Could not start the set-up', async () => setEnrolment(await apiRequest<TotpEnrolment>('POST', '/api/me/totp', {})));
  const confirm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = fieldsOf(event, ['code']);
    void run('Not turned on', async () => {
      const { recoveryCodes: codes } = await apiRequest<{ recoveryCodes: string[] }>('POST', '/api/me/totp/confirm', body);
      setEnrolment(null);
      setRecoveryCodes(codes);
    });
  };
  const turnOff = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const body = fieldsOf(event, ['password', 'code']);
    void run('Not turned off', async () => {
      await apiRequest('DELETE', '/api/me/totp', body);
      form.reset();
      toast({ title: 'Two-factor sign-in turned off' });
      await revalidator.revalidate();
    });
  };
  // Held at this page until it is set up: once done, the rest of the app opens (a new document, the session's rule re-read).
  const done = () => (status.setupRequired ? window.location.assign('/') : (setRecoveryCodes(null), void revalidator.revalidate()));

  return (
    <Card>
      <CardHeader title="Two-factor sign-in" />
      {status.setupRequired && !recoveryCodes && (
        <Alert variant="destructive">
          An admin requires two-factor sign-in for every account. Set it up here to go on using Pacer CRM.
        </Alert>
      )}
      {recoveryCodes ? (
        <RecoveryCodes codes={recoveryCodes} onDone={done} />
      ) : status.totpEnabled ? (
        <>
          <p className="muted">
            On: signing in asks for a code from your authenticator app. {status.recoveryCodesLeft} of 10 recovery codes left.
          </p>
          <form className="settings-form" onSubmit={turnOff} aria-label="Turn off two-factor sign-in">
            <div className="field">
              <Label htmlFor="two-factor-password" required>
                Password
              </Label>
              <Input id="two-factor-password" name="password" type="password" autoComplete="current-password" required />
            </div>
            <CodeField id="two-factor-off-code" label="Code from the app, or a recovery code" />
            <Button type="submit" variant="outline" disabled={pending || status.required}>
              Turn off
            </Button>
            {status.required && <p className="muted">An admin requires two-factor sign-in, so it stays on.</p>}
          </form>
        </>
      ) : enrolment ? (
        <div className="two-factor-setup">
          <p>Scan this QR code with an authenticator app (Google Authenticator, Authy, 1Password, …), then enter the code it shows.</p>
          <img src={qrImage(enrolment.qrSvg)} alt="QR code of the authenticator secret" width={200} height={200} />
          <p className="muted">
            Or type the secret in: <code aria-label="Secret">{enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
          </p>
          <form className="settings-form" onSubmit={confirm} aria-label="Confirm two-factor sign-in">
            <CodeField id="two-factor-code" />
            <Button type="submit" disabled={pending}>
              Turn on
            </Button>
          </form>
        </div>
      ) : (
        <>
          <p className="muted">Off: signing in takes your password alone. Add a code from an authenticator app on your phone.</p>
          <Button onClick={() => void start()} disabled={pending}>
            Set up two-factor sign-in
          </Button>
        </>
      )}
    </Card>
  );
}
