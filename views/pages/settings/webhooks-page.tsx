import { useState, type FormEvent } from 'react';
import { Link, useLoaderData, useNavigate, useRevalidator } from 'react-router';
import type { NewWebhookEndpoint, WebhookDelivery, WebhookEndpoint, WebhooksPage } from '@shared/schemas/webhooks.js';
import { WEBHOOK_SUBSCRIPTIONS } from '@shared/webhook-events.js';
import { dataSource, gated } from '@views/data/source.js';
import { apiRequest } from '@views/data/http.js';
import { useFormat } from '@views/hooks/use-format.js';
import { usePendingAction } from '@views/hooks/use-pending-action.js';
import { Alert, Badge, Button, Card, CardHeader, EmptyState, Input, Label } from '@views/components/ui/primitives.js';
import { toast } from '@views/components/ui/toast.js';
import { ShownOnce } from '@views/components/ui/shown-once.js';
import { TableScroll } from '@views/components/ui/table-scroll.js';

export const loader = gated(({ context, request }) => {
  const selected = Number(new URL(request.url).searchParams.get('endpoint'));
  return dataSource(context).webhooks(Number.isInteger(selected) && selected > 0 ? selected : null);
});

/** The secret of an endpoint just added: shown once, right after it is made. */
function SecretPanel({ created }: { created: NewWebhookEndpoint }) {
  return (
    <ShownOnce title="Signing secret" value={created.secret} label="Signing secret" copiedTitle="Secret copied">
      Webhook added for <strong>{created.url}</strong>. Its signing secret is shown only now: copy it into the receiver, which verifies each
      delivery with it (see the webhooks documentation).
    </ShownOnce>
  );
}

function AddWebhookForm({ onCreated }: { onCreated: (created: NewWebhookEndpoint) => void }) {
  const revalidator = useRevalidator();
  const { pending, run } = usePendingAction();
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    await run('Could not add the webhook', async () => {
      const created = await apiRequest<NewWebhookEndpoint>('POST', '/api/webhooks', {
        url: String(form.get('url') ?? ''),
        events: form.getAll('events').map(String),
      });
      toast({ title: 'Webhook added' });
      onCreated(created);
      formElement.reset();
      await revalidator.revalidate();
    });
  }
  return (
    <form className="webhooks-form" onSubmit={(event) => void submit(event)}>
      <div className="field">
        <Label htmlFor="webhook-url" required>
          URL
        </Label>
        <Input id="webhook-url" name="url" type="url" placeholder="https://example.org/hooks/pacer" required />
      </div>
      <fieldset className="webhooks-events">
        <legend>Events</legend>
        {WEBHOOK_SUBSCRIPTIONS.map((event) => (
          <label key={event} className="webhooks-event">
            <input type="checkbox" name="events" value={event} /> <code>{event}</code>
          </label>
        ))}
      </fieldset>
      <Button type="submit" disabled={pending}>
        {pending ? 'Adding...' : 'Add webhook'}
      </Button>
    </form>
  );
}

function EndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (!endpoint.enabled) return <Badge tone="danger">Disabled</Badge>;
  return endpoint.failingSince ? <Badge tone="warning">Failing</Badge> : <Badge tone="success">Enabled</Badge>;
}

function EndpointRow({ endpoint, selected }: { endpoint: WebhookEndpoint; selected: boolean }) {
  const format = useFormat();
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const { pending, run } = usePendingAction();
  const act = (method: 'POST' | 'DELETE', path: string, done: string, title: string) =>
    run(title, async () => {
      await apiRequest(method, `/api/webhooks/${endpoint.id}${path}`, method === 'POST' ? {} : undefined);
      toast({ title: done });
      if (method === 'DELETE' && selected) await navigate('/settings/webhooks');
      else await revalidator.revalidate();
    });
  return (
    <tr aria-current={selected ? 'true' : undefined}>
      <td className="webhooks-url">{endpoint.url}</td>
      <td>{endpoint.events.join(', ')}</td>
      <td>
        <EndpointStatus endpoint={endpoint} />
        {endpoint.failingSince && <div className="muted">Failing since {format.dateTime(endpoint.failingSince)}</div>}
      </td>
      <td>{endpoint.createdBy ?? 'CLI'}</td>
      <td>
        <div className="users-actions">
          <Link
            className="btn btn-outline btn-sm"
            to={`/settings/webhooks?endpoint=${endpoint.id}`}
            aria-label={`Deliveries of ${endpoint.url}`}
          >
            Deliveries
          </Link>
          {endpoint.enabled ? (
            <Button
              variant="outline"
              className="btn-sm"
              disabled={pending}
              onClick={() => void act('POST', '/test', 'Test event sent', 'Could not send')}
            >
              Send test event
            </Button>
          ) : (
            <Button
              variant="outline"
              className="btn-sm"
              disabled={pending}
              onClick={() => void act('POST', '/enable', 'Webhook enabled', 'Could not enable')}
            >
              Enable
            </Button>
          )}
          <Button
            variant="outline"
            className="btn-sm"
            disabled={pending}
            aria-label={`Delete ${endpoint.url}`}
            onClick={() => {
              if (window.confirm(`Delete the webhook for ${endpoint.url} and its delivery log?`))
                void act('DELETE', '', 'Webhook deleted', 'Could not delete');
            }}
          >
            Delete
          </Button>
        </div>
      </td>
    </tr>
  );
}

const STATE_TONES = { delivered: 'success', failed: 'danger', pending: 'warning', sending: 'info' } as const;

function DeliveryLog({ endpoint, deliveries }: { endpoint: WebhookEndpoint; deliveries: WebhookDelivery[] }) {
  const format = useFormat();
  const revalidator = useRevalidator();
  const { pending, run } = usePendingAction();
  const replay = (delivery: WebhookDelivery) =>
    run('Could not replay', async () => {
      await apiRequest('POST', `/api/webhooks/${endpoint.id}/deliveries/${delivery.id}/replay`, {});
      toast({ title: 'Delivery replayed' });
      await revalidator.revalidate();
    });
  return (
    <Card>
      <CardHeader
        title={`Deliveries to ${endpoint.url}`}
        actions={
          <Button variant="outline" className="btn-sm" onClick={() => void revalidator.revalidate()}>
            Refresh
          </Button>
        }
      />
      {deliveries.length === 0 ? (
        <EmptyState title="No deliveries yet" />
      ) : (
        <TableScroll stickyLast>
          <table className="records-table" aria-label="Deliveries">
            <thead>
              <tr>
                <th>Created</th>
                <th>Event</th>
                <th>Status</th>
                <th>Attempts</th>
                <th>Answer</th>
                <th>Duration</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <td className="records-nowrap">{format.dateTime(delivery.createdAt)}</td>
                  <td>
                    <code>{delivery.eventType}</code>
                  </td>
                  <td>
                    <Badge tone={STATE_TONES[delivery.state]}>{delivery.state}</Badge>
                    {delivery.state === 'pending' && delivery.nextAttemptAt && (
                      <div className="muted">Next try {format.dateTime(delivery.nextAttemptAt)}</div>
                    )}
                  </td>
                  <td>{delivery.attempts}</td>
                  <td title={delivery.responseBody ?? undefined}>{delivery.responseStatus ?? delivery.error ?? '—'}</td>
                  <td>{delivery.durationMs === null ? '—' : `${delivery.durationMs} ms`}</td>
                  <td>
                    <Button
                      variant="outline"
                      className="btn-sm"
                      disabled={pending || !endpoint.enabled}
                      onClick={() => void replay(delivery)}
                    >
                      Replay
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Card>
  );
}

export function Component() {
  const page = useLoaderData() as WebhooksPage;
  const [created, setCreated] = useState<NewWebhookEndpoint | null>(null);
  const disabled = page.items.filter((endpoint) => !endpoint.enabled);
  return (
    <div className="page settings-page">
      <div className="page-header">
        <h1>Webhooks</h1>
      </div>
      {disabled.map((endpoint) => (
        <Alert key={endpoint.id} variant="destructive" title={`Webhook disabled: ${endpoint.url}`}>
          {endpoint.disabledReason ?? 'It was disabled.'} Fix the receiver, then enable it again: its waiting deliveries go out in order.
        </Alert>
      ))}
      <Card>
        <CardHeader title="Add a webhook" />
        <AddWebhookForm onCreated={setCreated} />
      </Card>
      {created && <SecretPanel created={created} />}
      <Card>
        <CardHeader title={`Webhooks (${page.items.length})`} />
        {page.items.length === 0 ? (
          <EmptyState title="No webhooks yet" />
        ) : (
          <TableScroll stickyLast>
            <table className="records-table" aria-label="Webhooks">
              <thead>
                <tr>
                  <th>URL</th>
                  <th>Events</th>
                  <th>Status</th>
                  <th>Added by</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {page.items.map((endpoint) => (
                  <EndpointRow key={endpoint.id} endpoint={endpoint} selected={page.selected?.endpoint.id === endpoint.id} />
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Card>
      {page.selected && <DeliveryLog endpoint={page.selected.endpoint} deliveries={page.selected.deliveries} />}
    </div>
  );
}
