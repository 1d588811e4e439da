import type { ReactNode } from 'react';
import { Link, useLoaderData } from 'react-router';
import { INVOICE_STATUS_LABELS, labelOf } from '@shared/labels.js';
import { RECORD_TYPE_INFO, recordPagePath, SYNC_KINDS, syncedTypeOf } from '@shared/record-types.js';
import { UPCOMING_DAYS, type Dashboard } from '@shared/schemas/dashboard.js';
import { isPastDue } from '@shared/payment-due.js';
import { DateText, DateTimeText } from '@views/components/records/detail.js';
import { Badge, Card, CardHeader } from '@views/components/ui/primitives.js';
import { dataSource, gated } from '@views/data/source.js';
import { useFormat } from '@views/hooks/use-format.js';
import { useSession } from '@views/hooks/use-session.js';
import { DueThisWeek } from '@views/components/tasks/due-this-week.js';
import { SpendChart } from './spend-chart.js';
import { StatCards } from './stat-cards.js';
import { completedWithErrors } from '@shared/sync-outcome.js';

export const loader = gated(({ context }) => dataSource(context).dashboard());

/** A dashboard block: a card whose heading links to the list behind it. */
function Block({
  title,
  to,
  linkLabel,
  testId,
  children,
}: {
  title: string;
  to: string;
  linkLabel: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Card className="dashboard-block" data-testid={testId}>
      <CardHeader
        title={title}
        actions={
          <Link to={to} className="dashboard-more">
            {linkLabel}
          </Link>
        }
      />
      {children}
    </Card>
  );
}

function UpcomingEvents({ upcoming }: { upcoming: Dashboard['upcomingEvents'] }) {
  return (
    <Block title="Upcoming events" to="/events?view=calendar" linkLabel="Season calendar" testId="dashboard-upcoming">
      <p className="dashboard-summary">
        {upcoming.total === 1 ? '1 event' : `${upcoming.total.toLocaleString()} events`} in the next {UPCOMING_DAYS} days
      </p>
      {upcoming.total === 0 && (
        // An empty window is no dead end: point to what comes after it.
        <p className="muted" data-testid="dashboard-next-event">
          {upcoming.next ? (
            <>
              Next event:{' '}
              <Link to={recordPagePath('event', upcoming.next.id)} className="dashboard-name">
                {upcoming.next.eventName}
              </Link>{' '}
              on <DateText value={upcoming.next.eventStartDate} />
            </>
          ) : (
            'No events are scheduled after this.'
          )}
        </p>
      )}
      {upcoming.items.length > 0 && (
        <ul className="dashboard-list">
          {upcoming.items.map((event) => (
            <li key={event.id}>
              <span className="dashboard-when">
                <DateText value={event.eventStartDate} />
              </span>
              <Link to={recordPagePath('event', event.id)} className="dashboard-name">
                {event.eventName}
              </Link>
              <span className="dashboard-meta">
                {event.locationState && <Badge>{event.locationState}</Badge>}
                {event.featuredRace && <Badge tone="warning">Featured</Badge>}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Block>
  );
}

const INVOICE_TONES: Record<string, 'warning' | 'danger'> = { pending: 'warning', overdue: 'danger' };

function AwaitingPayment({ awaiting, today }: { awaiting: Dashboard['awaitingPayment']; today: string }) {
  const format = useFormat();
  const { overdue } = awaiting;
  return (
    <Card className="dashboard-block" data-testid="dashboard-awaiting">
      <CardHeader title="Awaiting payment" />
      <p className="dashboard-summary">
        <strong className="dashboard-figure">{awaiting.count.toLocaleString()}</strong> {awaiting.count === 1 ? 'payment' : 'payments'} ·{' '}
        <strong className="dashboard-figure">{format.money(awaiting.total)}</strong>
        {overdue.count > 0 && (
          <span className="dashboard-overdue" data-testid="dashboard-overdue">
            {' '}
            · {overdue.count.toLocaleString()} overdue ({format.money(overdue.total)})
          </span>
        )}
      </p>
      {awaiting.oldest.length > 0 && (
        <ul className="dashboard-list">
          {awaiting.oldest.map((payment) => (
            <li key={payment.id}>
              <span className="dashboard-when">
                <DateText value={payment.paymentDate} empty="No date" />
              </span>
              <span className="dashboard-name">
                <Link to={`${recordPagePath(payment.owner.type, payment.owner.id)}?tab=payments`}>
                  {payment.owner.name || RECORD_TYPE_INFO[payment.owner.type].singular}
                </Link>
                <span className="muted"> · {payment.description}</span>
              </span>
              <span className="dashboard-meta">
                {isPastDue(payment, today) ? (
                  <Badge tone="danger">Overdue</Badge>
                ) : (
                  <Badge tone={INVOICE_TONES[payment.invoiceStatus] ?? 'default'}>
                    {labelOf(INVOICE_STATUS_LABELS, payment.invoiceStatus)}
                  </Badge>
                )}
                <strong className="dashboard-amount">{format.money(payment.amount)}</strong>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function AdvertisingSpend({ months }: { months: Dashboard['advertisingSpend'] }) {
  const format = useFormat();
  const { locale } = useSession();
  const total = months.reduce((sum, entry) => sum + Math.round(Number(entry.total) * 100), 0);
  return (
    <Block title="Advertising spend" to="/brands" linkLabel="Brands" testId="dashboard-spend">
      <p className="dashboard-summary">
        <strong className="dashboard-figure">{format.money((total / 100).toFixed(2))}</strong> in the last 12 months
      </p>
      <SpendChart months={months} locale={locale} money={format.money} />
    </Block>
  );
}

const SYNC_TONES = { succeeded: 'success', failed: 'danger', cancelled: 'muted', unfinished: 'warning' } as const;
const SYNC_LABELS = { succeeded: 'Succeeded', failed: 'Failed', cancelled: 'Cancelled', unfinished: 'Running or stopped' } as const;

function LastSyncs({ runs }: { runs: Dashboard['lastSyncs'] }) {
  return (
    <Block title="Last sync" to="/integrations" linkLabel="Integrations" testId="dashboard-syncs">
      <ul className="dashboard-list">
        {SYNC_KINDS.map((kind) => {
          const run = runs[kind];
          return (
            <li key={kind}>
              <span className="dashboard-name">{RECORD_TYPE_INFO[syncedTypeOf(kind)].plural}</span>
              {run ? (
                <>
                  <span className="dashboard-when">
                    <DateTimeText value={run.startedAt} />
                  </span>
                  <span className="dashboard-meta">
                    {completedWithErrors(run) ? (
                      <Badge tone="warning">Completed with errors</Badge>
                    ) : (
                      <Badge tone={SYNC_TONES[run.status]}>{SYNC_LABELS[run.status]}</Badge>
                    )}
                    <span className="muted">
                      {run.created} new · {run.updated} updated{run.failed ? ` · ${run.failed} failed` : ''}
                    </span>
                  </span>
                </>
              ) : (
                <span className="dashboard-meta muted">Never synced</span>
              )}
            </li>
          );
        })}
      </ul>
    </Block>
  );
}

function RecentlyChanged({ records }: { records: Dashboard['recentlyChanged'] }) {
  return (
    <Card className="dashboard-block" data-testid="dashboard-recent">
      <CardHeader title="Recently changed" />
      {records.length === 0 ? (
        <p className="muted">Nothing yet</p>
      ) : (
        <ul className="dashboard-list">
          {records.map((record) => (
            <li key={`${record.type}:${record.id}`}>
              <span className="dashboard-name">
                <Link to={recordPagePath(record.type, record.id)}>{record.name || RECORD_TYPE_INFO[record.type].singular}</Link>
              </span>
              <span className="dashboard-meta">
                <Badge>{RECORD_TYPE_INFO[record.type].singular}</Badge>
                <span className="dashboard-when">
                  <DateTimeText value={record.updatedAt} />
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

export function Component() {
  const dashboard = useLoaderData() as Dashboard;
  return (
    <div className="page">
      <h1>Dashboard</h1>
      <StatCards stats={dashboard.stats} />
      <div className="dashboard-grid">
        <UpcomingEvents upcoming={dashboard.upcomingEvents} />
        <AwaitingPayment awaiting={dashboard.awaitingPayment} today={dashboard.today} />
        <AdvertisingSpend months={dashboard.advertisingSpend} />
        <LastSyncs runs={dashboard.lastSyncs} />
        <RecentlyChanged records={dashboard.recentlyChanged} />
        <DueThisWeek />
      </div>
    </div>
  );
}
