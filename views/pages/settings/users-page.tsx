import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLoaderData, useRevalidator } from 'react-router';
import { ROLE_LABELS, ROLES, type Role } from '@shared/roles.js';
import type { PublicUser, SignInEventView } from '@shared/schemas/auth.js';
import { dataSource, gated } from '@views/data/source.js';
import { apiRequest } from '@views/data/http.js';
import { useFormat } from '@views/hooks/use-format.js';
import { useSession } from '@views/hooks/use-session.js';
import { toastFailure, usePendingAction } from '@views/hooks/use-pending-action.js';
import { Badge, Button, Card, CardHeader, Input, Label } from '@views/components/ui/primitives.js';
import { toast } from '@views/components/ui/toast.js';
import { ShownOnce } from '@views/components/ui/shown-once.js';
import { useDialogPrimitive } from '@views/components/ui/dialog.js';
import { TableScroll } from '@views/components/ui/table-scroll.js';
import { SignInHistoryList } from './sign-in-history.js';

export const loader = gated(async ({ context }) => {
  const source = dataSource(context);
  const [users, security] = await Promise.all([source.users(), source.securitySettings()]);
  return { users, security };
});

interface IssuedLink {
  email: string;
  url: string;
  expiresAt: string;
  emailed: boolean;
}

/** The link the admin copies and sends: shown once, right after it is made. */
function LinkPanel({ link }: { link: IssuedLink }) {
  const format = useFormat();
  return (
    <ShownOnce title="Set-password link" value={link.url} label="One-time link" copiedTitle="Link copied">
      One-time link for <strong>{link.email}</strong>, valid until {format.dateTime(link.expiresAt)}
      {link.emailed ? ' (also emailed to them)' : ''}. Copy it and send it to them:
    </ShownOnce>
  );
}

function AddUserForm({ onLink }: { onLink: (link: IssuedLink) => void }) {
  const revalidator = useRevalidator();
  const { pending, run } = usePendingAction();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    await run('Could not add the user', async () => {
      const body = Object.fromEntries(['email', 'firstName', 'lastName', 'role'].map((name) => [name, String(form.get(name) ?? '')]));
      const added = await apiRequest<{ user: PublicUser } & Omit<IssuedLink, 'email'>>('POST', '/api/users', body);
      toast({ title: 'User added' });
      onLink({ email: added.user.email, url: added.url, expiresAt: added.expiresAt, emailed: added.emailed });
      formElement.reset();
      await revalidator.revalidate();
    });
  }
  return (
    <form className="settings-form" onSubmit={(event) => void submit(event)}>
      <div className="field">
        <Label htmlFor="new-user-email" required>
          Email
        </Label>
        <Input id="new-user-email" name="email" type="email" required />
      </div>
      <div className="field">
        <Label htmlFor="new-user-first" required>
          First name
        </Label>
        <Input id="new-user-first" name="firstName" required />
      </div>
      <div className="field">
        <Label htmlFor="new-user-last" required>
          Last name
        </Label>
        <Input id="new-user-last" name="lastName" required />
      </div>
      <div className="field">
        <Label htmlFor="new-user-role">Role</Label>
        <select id="new-user-role" name="role" className="input" defaultValue="staff">
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" disabled={pending}>
        {pending ? 'Adding...' : 'Add user'}
      </Button>
    </form>
  );
}

/** A change that asks first: the dialog's title, its question, and the button that makes the change. */
interface Confirmation {
  title: string;
  question: string;
  confirmLabel: string;
  run(): Promise<void>;
}

/** Asks before a change to a user (a role, a deactivation): focus starts on Cancel, Escape cancels. */
function ConfirmDialog({ asking, onClose }: { asking: Confirmation | null; onClose(): void }) {
  const Dialog = useDialogPrimitive();
  const [pending, setPending] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  if (!Dialog || !asking) return null;
  async function confirm() {
    setPending(true);
    try {
      await asking!.run();
    } finally {
      setPending(false);
      onClose();
    }
  }
  return (
    <Dialog.Root open onOpenChange={(open) => !open && !pending && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog"
          role="alertdialog"
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            cancelRef.current?.focus();
          }}
        >
          <Dialog.Title className="dialog-title">{asking.title}</Dialog.Title>
          <Dialog.Description>{asking.question}</Dialog.Description>
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <button ref={cancelRef} type="button" className="btn btn-outline" disabled={pending}>
                Cancel
              </button>
            </Dialog.Close>
            <Button disabled={pending} onClick={() => void confirm()}>
              {asking.confirmLabel}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Active once they have signed in; an invited user who never has is "Invited". */
function UserStatus({ user }: { user: PublicUser }) {
  if (!user.isActive) return <Badge>Inactive</Badge>;
  return user.lastLogin ? <Badge tone="success">Active</Badge> : <Badge tone="warning">Invited</Badge>;
}

function UserRow({
  user,
  me,
  onLink,
  onHistory,
}: {
  user: PublicUser;
  me: boolean;
  onLink: (link: IssuedLink) => void;
  onHistory: (user: PublicUser) => void;
}) {
  const format = useFormat();
  const revalidator = useRevalidator();
  const { pending, run } = usePendingAction();
  const [asking, setAsking] = useState<Confirmation | null>(null);
  const name = `${user.firstName} ${user.lastName}`.trim();
  const change = (body: { role?: Role; isActive?: boolean }, done: string) =>
    run('Could not change the user', async () => {
      await apiRequest('PUT', `/api/users/${user.id}`, body);
      toast({ title: done });
      await revalidator.revalidate();
    });
  const resetLink = () =>
    run('Could not make a link', async () => {
      const link = await apiRequest<Omit<IssuedLink, 'email'>>('POST', `/api/users/${user.id}/reset-link`, {});
      onLink({ ...link, email: user.email });
    });
  const askResetTwoFactor = () =>
    setAsking({
      title: 'Reset two-factor sign-in',
      question: `Remove the authenticator app and recovery codes of ${user.email}? They then sign in with their password alone (and set it up again when it is required).`,
      confirmLabel: 'Reset two-factor',
      run: async () => {
        try {
          const { hadSecondFactor } = await apiRequest<{ hadSecondFactor: boolean }>('POST', `/api/users/${user.id}/reset-2fa`, {});
          toast({ title: hadSecondFactor ? 'Two-factor sign-in reset' : 'They had no two-factor sign-in' });
        } catch (error) {
          toastFailure('Could not reset two-factor sign-in', error);
        }
      },
    });
  const askRole = (role: Role) =>
    setAsking({
      title: 'Change role',
      question: `Change the role of ${user.email} from ${ROLE_LABELS[user.role]} to ${ROLE_LABELS[role]}?`,
      confirmLabel: 'Change role',
      run: () => change({ role }, 'Role changed'),
    });
  const askDeactivate = () =>
    setAsking({
      title: 'Deactivate user',
      question: `Deactivate ${user.email}? They are signed out and cannot sign in until reactivated.`,
      confirmLabel: 'Deactivate',
      run: () => change({ isActive: false }, 'User deactivated'),
    });
  return (
    <tr>
      <td>
        {name}
        {me && <span className="muted"> (you)</span>}
      </td>
      <td className="users-email">{user.email}</td>
      <td>
        {/* The select shows the stored role until the change is confirmed. */}
        <select
          className="input users-role"
          aria-label={`Role of ${user.email}`}
          value={user.role}
          disabled={pending}
          onChange={(event) => askRole(event.target.value as Role)}
        >
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </select>
      </td>
      <td>
        <UserStatus user={user} />
      </td>
      <td className="records-nowrap">{user.lastLogin ? format.dateTime(user.lastLogin) : 'Never'}</td>
      <td>
        <div className="users-actions">
          <Button
            variant="outline"
            className="btn-sm"
            disabled={pending}
            onClick={() => (user.isActive ? askDeactivate() : void change({ isActive: true }, 'User reactivated'))}
            aria-label={`${user.isActive ? 'Deactivate' : 'Reactivate'} ${user.email}`}
          >
            {user.isActive ? 'Deactivate' : 'Reactivate'}
          </Button>
          <Button
            variant="outline"
            className="btn-sm"
            disabled={pending}
            onClick={() => void resetLink()}
            aria-label={`Reset password of ${user.email}`}
          >
            Reset password
          </Button>
          <Button
            variant="outline"
            className="btn-sm"
            disabled={pending}
            onClick={askResetTwoFactor}
            aria-label={`Reset two-factor sign-in of ${user.email}`}
          >
            Reset two-factor
          </Button>
          <Button variant="outline" className="btn-sm" onClick={() => onHistory(user)} aria-label={`Sign-in history of ${user.email}`}>
            Sign-ins
          </Button>
        </div>
        <ConfirmDialog asking={asking} onClose={() => setAsking(null)} />
      </td>
    </tr>
  );
}

/** "Require two-factor sign-in for everyone" (admins). */
function SecurityCard({ requireTwoFactor }: { requireTwoFactor: boolean }) {
  const revalidator = useRevalidator();
  const { pending, run } = usePendingAction();
  const toggle = (value: boolean) =>
    run('Not changed', async () => {
      await apiRequest('PUT', '/api/security', { requireTwoFactor: value });
      toast({ title: value ? 'Two-factor sign-in required' : 'Two-factor sign-in no longer required' });
      await revalidator.revalidate();
    });
  return (
    <Card>
      <CardHeader title="Security" />
      <label className="checkbox-row">
        <input type="checkbox" checked={requireTwoFactor} disabled={pending} onChange={(event) => void toggle(event.target.checked)} />{' '}
        Require two-factor sign-in for everyone
      </label>
      <p className="muted">Users without it are sent to their account page to set it up, and can use nothing else until they do.</p>
    </Card>
  );
}

/** One user's sign-in history, read when the admin asks for it. */
function HistoryPanel({ user, onClose }: { user: PublicUser; onClose: () => void }) {
  const [events, setEvents] = useState<SignInEventView[] | null>(null);
  useEffect(() => {
    let live = true;
    apiRequest<SignInEventView[]>('GET', `/api/users/${user.id}/sign-ins`).then(
      (read) => live && setEvents(read),
      (error: unknown) => toastFailure('Could not read the sign-in history', error),
    );
    return () => {
      live = false;
    };
  }, [user.id]);
  return (
    <Card>
      <CardHeader
        title={`Sign-in history of ${user.email}`}
        actions={
          <Button variant="outline" className="btn-sm" onClick={onClose}>
            Close
          </Button>
        }
      />
      {events ? <SignInHistoryList events={events} label={`Sign-in history of ${user.email}`} /> : <p className="muted">Loading…</p>}
    </Card>
  );
}

export function Component() {
  const { users, security } = useLoaderData() as { users: PublicUser[]; security: { requireTwoFactor: boolean } };
  const { user: me } = useSession();
  const [link, setLink] = useState<IssuedLink | null>(null);
  const [history, setHistory] = useState<PublicUser | null>(null);
  return (
    <div className="page settings-page">
      <div className="page-header">
        <h1>Users</h1>
      </div>
      <Card>
        <CardHeader title="Add a user" />
        <AddUserForm onLink={setLink} />
      </Card>
      {link && <LinkPanel link={link} />}
      <Card>
        <CardHeader title={`Users (${users.length})`} />
        <TableScroll stickyLast>
          <table className="records-table users-table" aria-label="Users">
            <thead>
              <tr>
                <th>Name</th>
                <th>Email</th>
                <th>Role</th>
                <th>Status</th>
                <th>Last sign-in</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <UserRow key={user.id} user={user} me={user.id === me?.id} onLink={setLink} onHistory={setHistory} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      </Card>
      {history && <HistoryPanel key={history.id} user={history} onClose={() => setHistory(null)} />}
      <SecurityCard requireTwoFactor={security.requireTwoFactor} />
    </div>
  );
}
