import { useState, type FormEvent } from 'react';
import { useLoaderData, useRevalidator } from 'react-router';
import { messageOf } from '@shared/api-error.js';
import { ROLE_LABELS, ROLES, type Role } from '@shared/roles.js';
import type { PublicUser } from '@shared/schemas/auth.js';
import { dataSource, gated } from '@views/data/source.js';
import { apiRequest } from '@views/data/http.js';
import { useFormat } from '@views/hooks/use-format.js';
import { useSession } from '@views/hooks/use-session.js';
import { Badge, Button, Card, CardHeader, Input, Label } from '@views/components/ui/primitives.js';
import { toast } from '@views/components/ui/toast.js';

export const loader = gated(({ context }) => dataSource(context).users());

interface IssuedLink {
  email: string;
  url: string;
  expiresAt: string;
  emailed: boolean;
}

const failed = (title: string) => (error: unknown) => toast({ title, description: messageOf(error, title), variant: 'destructive' });

/** The link the admin copies and sends: shown once, right after it is made. */
function LinkPanel({ link }: { link: IssuedLink }) {
  const format = useFormat();
  return (
    <div className="settings-link" role="status" aria-label="Set-password link">
      <p>
        One-time link for <strong>{link.email}</strong>, valid until {format.dateTime(link.expiresAt)}
        {link.emailed ? ' (also emailed to them)' : ''}. Copy it and send it to them:
      </p>
      <div className="settings-link-row">
        <Input readOnly value={link.url} aria-label="One-time link" onFocus={(event) => event.currentTarget.select()} />
        <Button variant="outline" onClick={() => void navigator.clipboard?.writeText(link.url).then(() => toast({ title: 'Link copied' }))}>
          Copy
        </Button>
      </div>
    </div>
  );
}

function AddUserForm({ onLink }: { onLink: (link: IssuedLink) => void }) {
  const revalidator = useRevalidator();
  const [pending, setPending] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setPending(true);
    try {
      const body = Object.fromEntries(['email', 'firstName', 'lastName', 'role'].map((name) => [name, String(form.get(name) ?? '')]));
      const added = await apiRequest<{ user: PublicUser } & Omit<IssuedLink, 'email'>>('POST', '/api/users', body);
      toast({ title: 'User added' });
      onLink({ email: added.user.email, url: added.url, expiresAt: added.expiresAt, emailed: added.emailed });
      formElement.reset();
      await revalidator.revalidate();
    } catch (error) {
      failed('Could not add the user')(error);
    } finally {
      setPending(false);
    }
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

function UserRow({ user, me, onLink }: { user: PublicUser; me: boolean; onLink: (link: IssuedLink) => void }) {
  const format = useFormat();
  const revalidator = useRevalidator();
  const [pending, setPending] = useState(false);
  const name = `${user.firstName} ${user.lastName}`.trim();
  async function change(body: { role?: Role; isActive?: boolean }, done: string) {
    setPending(true);
    try {
      await apiRequest('PUT', `/api/users/${user.id}`, body);
      toast({ title: done });
      await revalidator.revalidate();
    } catch (error) {
      failed('Could not change the user')(error);
    } finally {
      setPending(false);
    }
  }
  async function resetLink() {
    setPending(true);
    try {
      const link = await apiRequest<Omit<IssuedLink, 'email'>>('POST', `/api/users/${user.id}/reset-link`, {});
      onLink({ ...link, email: user.email });
    } catch (error) {
      failed('Could not make a link')(error);
    } finally {
      setPending(false);
    }
  }
  return (
    <tr>
      <td>
        {name}
        {me && <span className="muted"> (you)</span>}
      </td>
      <td>{user.email}</td>
      <td>
        <select
          className="input"
          aria-label={`Role of ${user.email}`}
          value={user.role}
          disabled={pending}
          onChange={(event) => void change({ role: event.target.value as Role }, 'Role changed')}
        >
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </select>
      </td>
      <td>{user.isActive ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>}</td>
      <td>{user.lastLogin ? format.dateTime(user.lastLogin) : 'Never'}</td>
      <td className="card-actions">
        <Button
          variant="outline"
          className="btn-sm"
          disabled={pending}
          onClick={() => void change({ isActive: !user.isActive }, user.isActive ? 'User deactivated' : 'User reactivated')}
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
      </td>
    </tr>
  );
}

export function Component() {
  const users = useLoaderData() as PublicUser[];
  const { user: me } = useSession();
  const [link, setLink] = useState<IssuedLink | null>(null);
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
        <div className="records-table-wrap">
          <table className="records-table">
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
                <UserRow key={user.id} user={user} me={user.id === me?.id} onLink={setLink} />
              ))}
            </tbody>
          </table>
        </div>
      </Card>
    </div>
  );
}
