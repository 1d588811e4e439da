import { useEffect } from 'react';
import { data, Form, useActionData, useLoaderData, useNavigation, type ActionFunctionArgs } from 'react-router';
import { issuesOf, messageOf, statusOf } from '@shared/api-error.js';
import { firstErrorPerField, type FieldErrors } from '@shared/field-errors.js';
import { ROLE_LABELS, ROLES } from '@shared/roles.js';
// Types only: the schemas module brings zod, which no page's first load carries.
import type { ApiToken, CreatedApiToken } from '@shared/schemas/api-tokens.js';
import { dataSource, gated, gatedAction, isServerContext } from '@views/data/source.js';
import { useFormat } from '@views/hooks/use-format.js';
import { Alert, Badge, Button, Card, CardHeader, EmptyState, FieldError, Input, Label } from '@views/components/ui/primitives.js';
import { toast } from '@views/components/ui/toast.js';
import { ShownOnce } from '@views/components/ui/shown-once.js';
import { TableScroll } from '@views/components/ui/table-scroll.js';

/** The lifetimes offered, in days; the API and the CLI take any whole number of days (or none). */
const LIFETIMES = [30, 90, 365] as const;

export const loader = gated(({ context }) => dataSource(context).apiTokens());

/** What the action hands back: the new token (shown once), a revocation, or why it was refused. */
type ActionResult =
  | { intent: 'create'; created: CreatedApiToken }
  | { intent: 'revoke'; revoked: number }
  | { failed: string; message: string; errors: FieldErrors };

function refused(context: unknown, title: string, error: unknown) {
  // A fault (no status) is the server's 500 page; a refusal is shown with the form.
  if (isServerContext(context) && statusOf(error) === undefined) throw error;
  if (!isServerContext(context)) toast({ title, description: messageOf(error, title), variant: 'destructive' });
  return data<ActionResult>(
    { failed: title, message: messageOf(error, title), errors: firstErrorPerField(issuesOf(error) ?? []) },
    { status: statusOf(error) ?? 500 },
  );
}

/** The form posts here with `intent` create or revoke (it works before hydration and without JavaScript). */
export const action = gatedAction(async ({ request, context }: ActionFunctionArgs) => {
  const form = await request.formData();
  const intent = form.get('intent');
  const ds = dataSource(context);
  if (intent === 'create') {
    const expires = String(form.get('expiresInDays') ?? '');
    const input = {
      name: String(form.get('name') ?? ''),
      role: String(form.get('role') ?? ''),
      expiresInDays: expires === '' || expires === 'never' ? null : Number(expires),
    };
    try {
      return { intent: 'create', created: await ds.createApiToken(input) } satisfies ActionResult;
    } catch (error) {
      return refused(context, 'Could not create the token', error);
    }
  }
  if (intent === 'revoke') {
    const id = Number(form.get('id'));
    try {
      await ds.revokeApiToken(id);
      if (!isServerContext(context)) toast({ title: 'Token revoked' });
      return { intent: 'revoke', revoked: id } satisfies ActionResult;
    } catch (error) {
      return refused(context, 'Could not revoke the token', error);
    }
  }
  throw data('Unknown request', { status: 400 });
});

/** The new token, shown this once: only its hash is kept. */
function CreatedPanel({ created }: { created: CreatedApiToken }) {
  const format = useFormat();
  return (
    <ShownOnce title="New API token" value={created.token} label="API token" copiedTitle="Token copied">
      New token <strong>{created.name}</strong> ({ROLE_LABELS[created.role]},{' '}
      {created.expiresAt ? `valid until ${format.dateTime(created.expiresAt)}` : 'never expires'}). Copy it now: it is not shown again. Send
      it as <code>Authorization: Bearer …</code> to <code>/api</code>.
    </ShownOnce>
  );
}

function CreateForm({ errors, busy }: { errors: FieldErrors; busy: boolean }) {
  return (
    <Form method="post" className="settings-form" aria-label="Create an API token">
      <input type="hidden" name="intent" value="create" />
      <div className="field">
        <Label htmlFor="token-name" required>
          Name
        </Label>
        <Input id="token-name" name="name" required maxLength={100} aria-describedby="token-name-error" placeholder="Website forms" />
        <FieldError id="token-name-error" message={errors.name} />
      </div>
      <div className="field">
        <Label htmlFor="token-role">Role</Label>
        <select id="token-role" name="role" className="input" defaultValue="staff">
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </select>
        <FieldError id="token-role-error" message={errors.role} />
      </div>
      <div className="field">
        <Label htmlFor="token-expires">Expires</Label>
        <select id="token-expires" name="expiresInDays" className="input" defaultValue="90">
          {LIFETIMES.map((days) => (
            <option key={days} value={days}>
              In {days} days
            </option>
          ))}
          <option value="never">Never</option>
        </select>
      </div>
      <Button type="submit" disabled={busy}>
        {busy ? 'Creating...' : 'Create token'}
      </Button>
    </Form>
  );
}

const STATUS_TONE = { active: 'success', expired: 'warning', revoked: 'muted' } as const;
const STATUS_LABEL = { active: 'Active', expired: 'Expired', revoked: 'Revoked' } as const;

function TokenRow({ token, busy }: { token: ApiToken; busy: boolean }) {
  const format = useFormat();
  return (
    <tr>
      <td>{token.name}</td>
      <td>{ROLE_LABELS[token.role]}</td>
      <td>
        <Badge tone={STATUS_TONE[token.status]}>{STATUS_LABEL[token.status]}</Badge>
      </td>
      <td className="records-nowrap">{token.expiresAt ? format.dateTime(token.expiresAt) : 'Never'}</td>
      <td className="records-nowrap">
        {token.lastUsedAt ? `${format.dateTime(token.lastUsedAt)} from ${token.lastUsedIp ?? 'unknown'}` : 'Never used'}
      </td>
      <td>{token.createdBy ?? 'Command line'}</td>
      <td>
        {token.status !== 'revoked' && (
          <Form method="post">
            <input type="hidden" name="intent" value="revoke" />
            <input type="hidden" name="id" value={token.id} />
            <Button variant="outline" className="btn-sm" type="submit" disabled={busy} aria-label={`Revoke ${token.name}`}>
              Revoke
            </Button>
          </Form>
        )}
      </td>
    </tr>
  );
}

export function Component() {
  const tokens = useLoaderData() as ApiToken[];
  const result = useActionData() as ActionResult | undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  const failure = result && 'failed' in result ? result : undefined;
  useEffect(() => {
    // The token field is what the admin came for: bring it into view.
    if (result && 'created' in result) document.querySelector<HTMLInputElement>('[aria-label="API token"]')?.focus();
  }, [result]);
  return (
    <div className="page settings-page">
      <div className="page-header">
        <h1>API tokens</h1>
      </div>
      <p className="muted">A token lets a script or another system use the API with the role it is given, without signing in.</p>
      <Card>
        <CardHeader title="Create a token" />
        {failure && (
          <Alert variant="destructive" title={failure.failed}>
            {failure.message}
          </Alert>
        )}
        <CreateForm errors={failure?.errors ?? {}} busy={busy} />
      </Card>
      {result && 'created' in result && <CreatedPanel created={result.created} />}
      <Card>
        <CardHeader title={`Tokens (${tokens.length})`} />
        {tokens.length === 0 ? (
          <EmptyState title="No API tokens yet" />
        ) : (
          <TableScroll stickyLast>
            <table className="records-table" aria-label="API tokens">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Role</th>
                  <th>Status</th>
                  <th>Expires</th>
                  <th>Last used</th>
                  <th>Created by</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((token) => (
                  <TokenRow key={token.id} token={token} busy={busy} />
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Card>
    </div>
  );
}
