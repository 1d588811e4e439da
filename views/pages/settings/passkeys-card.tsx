import { useState, type FormEvent } from 'react';
import { useRevalidator } from 'react-router';
import { messageOf } from '@shared/api-error.js';
import type { PasskeyView } from '@shared/schemas/auth.js';
import { apiRequest } from '@views/data/http.js';
import { useFormat } from '@views/hooks/use-format.js';
import { usePasskeySupport } from '@views/hooks/use-passkey-support.js';
import { useSession } from '@views/hooks/use-session.js';
import { Button, Card, CardHeader, EmptyState, Input, Label } from '@views/components/ui/primitives.js';
import { toast } from '@views/components/ui/toast.js';

type WebAuthn = typeof import('@views/data/webauthn.js');

/** A failure as a toast: the browser's prompt explained plainly, else the server's message. */
const failed = (title: string, webauthn?: WebAuthn) => (error: unknown) =>
  toast({ title, description: webauthn?.passkeyPromptMessage(error, title) ?? messageOf(error, title), variant: 'destructive' });

function PasskeyRow({ passkey, onChanged }: { passkey: PasskeyView; onChanged: () => void }) {
  const format = useFormat();
  const [renaming, setRenaming] = useState(false);
  const [pending, setPending] = useState(false);
  async function run(work: () => Promise<void>, failure: string) {
    setPending(true);
    try {
      await work();
      onChanged();
    } catch (error) {
      failed(failure)(error);
    } finally {
      setPending(false);
    }
  }
  const rename = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('name') ?? '');
    void run(async () => {
      await apiRequest('PATCH', `/api/me/passkeys/${passkey.id}`, { name });
      setRenaming(false);
      toast({ title: 'Passkey renamed' });
    }, 'Could not rename the passkey');
  };
  const remove = () =>
    void run(async () => {
      await apiRequest('DELETE', `/api/me/passkeys/${passkey.id}`);
      toast({ title: 'Passkey removed' });
    }, 'Could not remove the passkey');
  const inputId = `passkey-name-${passkey.id}`;
  return (
    <li className="attachments-row">
      {renaming ? (
        <form className="passkey-rename" onSubmit={rename}>
          <Label htmlFor={inputId}>New name for {passkey.name}</Label>
          <Input id={inputId} name="name" defaultValue={passkey.name} maxLength={100} required autoFocus />
          <Button type="submit" className="btn-sm" disabled={pending}>
            Save
          </Button>
          <Button variant="ghost" className="btn-sm" onClick={() => setRenaming(false)}>
            Cancel
          </Button>
        </form>
      ) : (
        <>
          <div className="attachments-contact-main">
            <span className="attachments-contact-name">{passkey.name}</span>
            <span className="muted">
              Added {format.dateTime(passkey.createdAt)} ·{' '}
              {passkey.lastUsedAt ? `last used ${format.dateTime(passkey.lastUsedAt)}` : 'never used'}
            </span>
          </div>
          <div className="settings-link-row">
            <Button variant="outline" className="btn-sm" aria-label={`Rename ${passkey.name}`} onClick={() => setRenaming(true)}>
              Rename
            </Button>
            <Button variant="outline" className="btn-sm" aria-label={`Remove ${passkey.name}`} disabled={pending} onClick={remove}>
              Remove
            </Button>
          </div>
        </>
      )}
    </li>
  );
}

/**
 * /settings/account: my passkeys (docs/decisions/0104). Each signs me in on its own ("Sign in with a passkey") or
 * stands in for the authenticator code. Adding one asks the browser to make it (the WebAuthn code loads on the click).
 */
export function PasskeysCard({ passkeys }: { passkeys: PasskeyView[] }) {
  const { env } = useSession();
  const revalidator = useRevalidator();
  const supported = usePasskeySupport();
  const [pending, setPending] = useState(false);
  const refresh = () => void revalidator.revalidate();

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const name = String(new FormData(formElement).get('name') ?? '');
    setPending(true);
    let webauthn: WebAuthn | undefined;
    try {
      webauthn = await import('@views/data/webauthn.js');
      const options = await apiRequest<import('@views/data/webauthn.js').CreationOptionsJSON>('POST', '/api/me/passkeys/options', {});
      const response = await webauthn.createPasskey(options);
      await apiRequest('POST', '/api/me/passkeys', { name, response });
      formElement.reset();
      toast({ title: 'Passkey added' });
      refresh();
    } catch (error) {
      failed('Could not add the passkey', webauthn)(error);
    } finally {
      setPending(false);
    }
  }

  return (
    <Card>
      <CardHeader title="Passkeys" />
      <p className="muted">
        A passkey signs you in with your fingerprint, face or device PIN instead of a password, and can stand in for the authenticator code.
      </p>
      {passkeys.length === 0 ? (
        <EmptyState title="No passkeys yet" />
      ) : (
        <ul className="attachments-list" aria-label="Passkeys">
          {passkeys.map((passkey) => (
            <PasskeyRow key={passkey.id} passkey={passkey} onChanged={refresh} />
          ))}
        </ul>
      )}
      {!env.passkeys ? (
        <p className="muted">Passkeys are off on this site: an admin must set its address (APP_URL).</p>
      ) : supported === false ? (
        <p className="muted">This browser cannot use passkeys.</p>
      ) : (
        <form className="settings-form" onSubmit={(event) => void add(event)}>
          <div className="field">
            <Label htmlFor="passkey-new-name" required>
              Passkey name
            </Label>
            <Input id="passkey-new-name" name="name" placeholder="e.g. Work laptop" maxLength={100} required />
          </div>
          <Button type="submit" disabled={pending}>
            {pending ? 'Waiting for the passkey...' : 'Add a passkey'}
          </Button>
        </form>
      )}
    </Card>
  );
}
