import { useLoaderData, useLocation } from 'react-router';
import { LOG_KIND_LABELS, SOURCE_LABELS, type ActivityPage, type LogKind } from '@shared/activity.js';
import { RECORD_TYPE_INFO, RECORD_TYPES } from '@shared/record-types.js';
import type { PublicUser } from '@shared/schemas/auth.js';
import { dataSource, gated, withQuery } from '@views/data/source.js';
import { useFormat } from '@views/hooks/use-format.js';
import { Badge, Button, Card, EmptyState, Input, Label } from '@views/components/ui/primitives.js';
import { TableScroll } from '@views/components/ui/table-scroll.js';

const FILTERS = ['user', 'kind', 'type', 'from', 'to'] as const;

interface LogPageData {
  log: ActivityPage<LogKind>;
  users: PublicUser[];
}

export const loader = gated(async ({ context, request }): Promise<LogPageData> => {
  const search = new URL(request.url).searchParams;
  const params: Record<string, string> = {};
  for (const name of [...FILTERS, 'after'] as const) {
    const value = search.get(name);
    if (value) params[name] = value;
  }
  const source = dataSource(context);
  const [log, users] = await Promise.all([source.activityLog(params), source.users()]);
  return { log, users };
});

const TYPE_LABELS: Record<string, string> = {
  ...Object.fromEntries(RECORD_TYPES.map((type) => [type, RECORD_TYPE_INFO[type].singular])),
  contact: 'Contact',
  payment: 'Payment',
  file: 'File',
  user: 'User',
};

/**
 * The activity log (admins; issue 33 point 5, docs/decisions/0106): every change, sign-in and failed sign-in,
 * export, import, sync and API token change, newest first, filtered by user, kind, record type and dates, with
 * the same list as CSV. A plain GET form and links, so it works before (and without) JavaScript.
 */
export function Component() {
  const { log, users } = useLoaderData() as LogPageData;
  const format = useFormat();
  const search = new URLSearchParams(useLocation().search);
  const filters = Object.fromEntries(FILTERS.map((name) => [name, search.get(name) ?? '']));
  const userName = (user: PublicUser) => `${user.firstName} ${user.lastName}`.trim() || user.email;
  return (
    <div className="page settings-page">
      <div className="page-header">
        <h1>Activity log</h1>
        <a className="btn btn-outline" href={withQuery('/api/activity.csv', filters)} download>
          Export CSV
        </a>
      </div>
      <form method="get" className="activity-log-filters" aria-label="Filter the activity log">
        <div className="field">
          <Label htmlFor="activity-user">User</Label>
          <select id="activity-user" name="user" className="input" defaultValue={filters.user}>
            <option value="">Everyone</option>
            {users.map((user) => (
              <option key={user.id} value={user.id}>
                {userName(user)}
              </option>
            ))}
          </select>
        </div>
        <ChoiceFilter name="kind" label="Kind" any="Everything" choices={LOG_KIND_LABELS} value={filters.kind} />
        <ChoiceFilter name="type" label="Record type" any="Any" choices={TYPE_LABELS} value={filters.type} />
        <div className="field">
          <Label htmlFor="activity-from">From</Label>
          <Input id="activity-from" name="from" type="date" defaultValue={filters.from} />
        </div>
        <div className="field">
          <Label htmlFor="activity-to">To</Label>
          <Input id="activity-to" name="to" type="date" defaultValue={filters.to} />
        </div>
        <Button type="submit" variant="outline">
          Filter
        </Button>
      </form>
      {log.items.length === 0 ? (
        <EmptyState title="No activity" />
      ) : (
        <Card>
          <TableScroll>
            <table className="records-table" aria-label="Activity log">
              <thead>
                <tr>
                  <th>When</th>
                  <th>Kind</th>
                  <th>Who</th>
                  <th>What</th>
                </tr>
              </thead>
              <tbody>
                {log.items.map((item) => (
                  <tr key={item.id} data-kind={item.kind}>
                    <td className="records-nowrap">{format.dateTime(item.at)}</td>
                    <td>
                      <Badge>{LOG_KIND_LABELS[item.kind]}</Badge>
                    </td>
                    <td>
                      {item.actor?.name ?? ''}
                      {item.source && item.source !== 'screen' && <span className="muted"> ({SOURCE_LABELS[item.source]})</span>}
                    </td>
                    <td>{item.summary}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </Card>
      )}
      {log.next && (
        <div className="card-actions">
          <a className="btn btn-outline btn-sm" href={withQuery('/settings/activity', { ...filters, after: log.next })}>
            Older
          </a>
        </div>
      )}
    </div>
  );
}

/** One of the log's filters: a select of labelled choices, with an empty choice for all of them. */
function ChoiceFilter({
  name,
  label,
  any,
  choices,
  value,
}: {
  name: string;
  label: string;
  any: string;
  choices: Readonly<Record<string, string>>;
  value: string | undefined;
}) {
  return (
    <div className="field">
      <Label htmlFor={`activity-${name}`}>{label}</Label>
      <select id={`activity-${name}`} name={name} className="input" defaultValue={value}>
        <option value="">{any}</option>
        {Object.entries(choices).map(([choice, text]) => (
          <option key={choice} value={choice}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
