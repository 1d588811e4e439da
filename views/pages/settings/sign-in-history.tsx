import type { SignInEventView } from '@shared/schemas/auth.js';
import { useFormat } from '@views/hooks/use-format.js';
import { Badge, EmptyState } from '@views/components/ui/primitives.js';

const HOW: Record<string, string> = {
  password: 'with the password',
  totp: 'with an authenticator code',
  recovery_code: 'with a recovery code',
  link: 'through a one-time link',
  passkey: 'with a passkey',
};
const WHY: Record<string, string> = {
  password: 'wrong password',
  unknown: 'unknown email',
  inactive: 'account deactivated',
  wrong_code: 'wrong or used code',
  passkey: 'passkey refused',
  unknown_passkey: 'unknown passkey',
};

/** What one entry of the sign-in history says happened. */
function describe(event: SignInEventView): string {
  const how = event.detail ? HOW[event.detail] : undefined;
  switch (event.kind) {
    case 'sign_in':
      return event.succeeded
        ? `Signed in${how ? ` ${how}` : ''}`
        : `Sign-in failed${event.detail ? ` (${WHY[event.detail] ?? event.detail})` : ''}`;
    case 'second_factor':
      return event.succeeded
        ? `Second factor accepted${how ? ` (${how.replace(/^with /, '')})` : ''}`
        : `Second factor refused (${event.detail === 'passkey' ? 'passkey refused' : 'wrong or used code'})`;
    case 'password_changed':
      return 'Password changed';
    case 'password_reset':
      return 'Password set through a one-time link';
    case 'two_factor_enabled':
      return 'Two-factor sign-in turned on';
    case 'two_factor_disabled':
      return 'Two-factor sign-in turned off';
    case 'two_factor_reset':
      return event.by ? `Two-factor sign-in reset by ${event.by}` : 'Two-factor sign-in reset by an admin';
    case 'passkey_added':
      return event.detail ? `Passkey “${event.detail}” added` : 'Passkey added';
    case 'passkey_removed':
      return event.detail ? `Passkey “${event.detail}” removed` : 'Passkey removed';
  }
}

/** The sign-in history of one account (mine on /settings/account, anyone's for an admin on /settings/users). */
export function SignInHistoryList({ events, label }: { events: SignInEventView[]; label: string }) {
  const format = useFormat();
  if (events.length === 0) return <EmptyState title="No sign-ins yet" />;
  return (
    <ul className="attachments-list" aria-label={label}>
      {events.map((event) => (
        <li key={event.id} className="attachments-row">
          <div className="attachments-contact-main">
            <span className="attachments-contact-name">{describe(event)}</span>
            <span className="muted">
              {format.dateTime(event.occurredAt)} · {event.ip} · {event.browser} on {event.os}
            </span>
          </div>
          {!event.succeeded && <Badge tone="danger">Failed</Badge>}
        </li>
      ))}
    </ul>
  );
}
