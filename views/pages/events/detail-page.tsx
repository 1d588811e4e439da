import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { statusOf } from '@shared/api-error.js';
import { valueLabel } from '@shared/labels.js';
import type { Event, EventDistance } from '@shared/schemas/records.js';
import { RecordDetailActions } from '@views/components/records/delete-dialog.js';
import {
  DateText,
  ExternalButton,
  ExternalLink,
  InfoList,
  listText,
  multilineText,
  NotFoundView,
  PageHeader,
} from '@views/components/records/detail.js';
import { wordpressAdminEditUrl } from '@views/components/records/links.js';
import { loadDetail, type DetailData } from '@views/components/records/loaders.js';
import { SyncedDetail } from '@views/components/records/synced-detail.js';
import { Badge, Card } from '@views/components/ui/primitives.js';
import { dataSource, gated, notFoundWhen } from '@views/data/source.js';
import { useFormat } from '@views/hooks/use-format.js';
import { useIsAdmin, useSession } from '@views/hooks/use-session.js';
import { lazyAction } from '@views/components/records/lazy-action.js';
import { eventsConfig } from './config.js';

interface EventDetailData extends DetailData<Event> {
  wordpressUrl: string | null;
}

export const loader = gated(async ({ params, context }: LoaderFunctionArgs): Promise<EventDetailData> => {
  const ds = dataSource(context);
  const detail = await loadDetail(ds, 'event', params.id);
  // The public page link is asked for only when the event is synced (spec point 7).
  let wordpressUrl: string | null = null;
  if (detail.record?.wordpressEventId != null) {
    try {
      wordpressUrl = (await ds.eventWordpressUrl(detail.record)).wordpressUrl;
    } catch (error) {
      // 409: no public site is configured; the page says so instead of failing. Anything else is a real failure.
      if (statusOf(error) !== 409) throw error;
    }
  }
  return notFoundWhen(detail.record === null, { ...detail, wordpressUrl });
});

/** The record's delete and its contacts', payments' and files' writes (the cards post them here). */
export const action = lazyAction(eventsConfig, async () => (await import('@views/components/attachments/actions.js')).recordDetailAction);

const DISTANCE_COLUMNS = ['Distance', 'Start', 'Entry fee', 'Participants', 'Prizes'] as const;

function Distances({ distances }: { distances: EventDistance[] }) {
  const format = useFormat();
  if (distances.length === 0) return null;
  return (
    <Card className="records-section">
      <h2 className="card-title">Distances</h2>
      <div className="records-table-wrap">
        <table className="records-table records-table-stack">
          <thead>
            <tr>
              {DISTANCE_COLUMNS.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {distances.map((distance) => (
              <tr key={distance.id}>
                <td data-label="Distance" className="records-nowrap">
                  {distance.distanceKm !== null ? `${Number(distance.distanceKm)} km` : '—'}
                </td>
                <td data-label="Start" className="records-nowrap">
                  {[format.date(distance.distanceStartDate), distance.distanceStartTime].filter(Boolean).join(' ') || '—'}
                </td>
                <td data-label="Entry fee" className="records-nowrap">
                  {distance.entryFee !== null ? format.money(distance.entryFee) : '—'}
                </td>
                <td data-label="Participants" className="records-nowrap">
                  {distance.participantsCount ?? '—'}
                </td>
                <td data-label="Prizes">{listText(distance.prizes) ?? distance.prizeDescription ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

/**
 * Hand-written layout: the spec's event detail is tabs (details, distances, gallery…) around a composed location,
 * not a plain field list (src/shared/records/event.ts).
 */
export function Component() {
  const { record: event, attachments, wordpressUrl } = useLoaderData() as EventDetailData;
  const { env } = useSession();
  const format = useFormat();
  const isAdmin = useIsAdmin();
  if (!event) return <NotFoundView title="Event not found" backTo="/events" backLabel="Back to Events" />;
  const location = [event.locationAddress, event.locationState].filter(Boolean).join(', ');
  return (
    <div className="page">
      <PageHeader
        backTo="/events"
        backLabel="Back to Events"
        title={event.eventName}
        badges={event.featuredRace ? <Badge tone="warning">Featured</Badge> : null}
        actions={
          <RecordDetailActions
            kind={eventsConfig}
            id={event.id}
            editLabel="Edit Event"
            question="Are you sure you want to delete this event? This action cannot be undone."
          />
        }
      />
      <SyncedDetail
        ownerType="event"
        record={event}
        wordpressId={event.wordpressEventId}
        attachments={attachments}
        details={
          <>
            <Card className="records-section">
              <h2 className="card-title">Event Details</h2>
              <InfoList
                items={[
                  { label: 'Start date', value: <DateText value={event.eventStartDate} empty="Date TBD" /> },
                  { label: 'End date', value: event.eventEndDate && <DateText value={event.eventEndDate} /> },
                  { label: 'Location', value: location },
                  { label: 'Website', value: event.websiteUrl && <ExternalLink href={event.websiteUrl} /> },
                  // Without a public site address the link cannot be made: that is a setting to fix, so it is a hint for
                  // admins (who can fix it), not a value; others see no row at all.
                  ...(wordpressUrl || event.wordpressEventId === null || isAdmin
                    ? [
                        {
                          label: 'Public event page',
                          value: wordpressUrl ? (
                            <ExternalLink href={wordpressUrl}>View on the website</ExternalLink>
                          ) : event.wordpressEventId === null ? (
                            <span className="muted">Not synced</span>
                          ) : (
                            <span className="field-hint" data-testid="public-site-hint">
                              Public site address not configured: set PUBLIC_SITE_URL to link this event&apos;s page on the website.
                            </span>
                          ),
                        },
                      ]
                    : []),
                  { label: 'Run types', value: listText(event.runType.map(valueLabel)) },
                  { label: 'Track types', value: listText(event.trackType.map(valueLabel)) },
                  { label: 'Entry cost', value: event.entryCost },
                  { label: 'Prizes', value: multilineText(event.prizes) },
                  { label: 'Advertising spend', value: format.money(event.totalAdvertisingSpend) },
                  { label: 'Notes', value: multilineText(event.notes) },
                ]}
              />
            </Card>
            <Distances distances={event.distances} />
          </>
        }
        status={event.featuredRace ? 'Featured' : 'Regular'}
        infoTitle="Event Info"
        infoButtons={
          <>
            <ExternalButton href={wordpressUrl}>View Event Page</ExternalButton>
            <ExternalButton href={event.websiteUrl}>Visit Website</ExternalButton>
            <ExternalButton href={wordpressAdminEditUrl(env.wordpressAdminUrl, event.wordpressEventId)}>Edit in WordPress</ExternalButton>
          </>
        }
      />
    </div>
  );
}
