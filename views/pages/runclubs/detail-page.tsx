import { CLUB_TYPE_LABELS, typeLabel, valueLabel } from '@shared/labels.js';
import { useLoaderData } from 'react-router';
import type { RunClub, RunClubSchedule } from '@shared/schemas/records.js';
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
import { mailtoHref, wordpressAdminEditUrl } from '@views/components/records/links.js';
import { detailLoader, type DetailData } from '@views/components/records/loaders.js';
import { SyncedDetail } from '@views/components/records/synced-detail.js';
import { Badge, Card } from '@views/components/ui/primitives.js';
import { useSession } from '@views/hooks/use-session.js';
import { runclubsConfig } from './config.js';
import { lazyAction } from '@views/components/records/lazy-action.js';

export const loader = detailLoader('runclub');
/** The record's delete and its contacts', payments' and files' writes (the cards post them here). */
export const action = lazyAction(runclubsConfig, async () => (await import('@views/components/attachments/actions.js')).recordDetailAction);

function Schedules({ schedules }: { schedules: RunClubSchedule[] }) {
  if (schedules.length === 0) return null;
  return (
    <Card className="records-section">
      <h2 className="card-title">Schedules</h2>
      <ul className="records-schedule-list">
        {schedules.map((schedule) => (
          <li key={schedule.id} className="records-schedule">
            <strong>{schedule.title || schedule.runStyle || 'Run'}</strong>
            <span>
              {schedule.isRecurring ? schedule.dayOfWeek : <DateText value={schedule.specificDate} />}
              {schedule.startTime && ` · ${schedule.startTime}${schedule.endTime ? `–${schedule.endTime}` : ''}`}
            </span>
            {schedule.locationAddress && <span className="muted">{schedule.locationAddress}</span>}
            {schedule.cost && <span className="muted">Cost: {schedule.cost}</span>}
            {multilineText(schedule.description)}
          </li>
        ))}
      </ul>
    </Card>
  );
}

/**
 * Hand-written layout: the spec's run club detail mixes the club's own type words, a composed location and
 * schedules, not a plain field list (src/shared/records/runclub.ts).
 */
export function Component() {
  const { record: club, attachments } = useLoaderData() as DetailData<RunClub>;
  const { env } = useSession();
  if (!club) return <NotFoundView title="Run Club not found" backTo="/runclubs" backLabel="Back to Run Clubs" />;
  return (
    <div className="page">
      <PageHeader
        backTo="/runclubs"
        backLabel="Back to Run Clubs"
        title={club.clubName}
        badges={club.clubType.map((type) => (
          <Badge key={type} tone="info">
            {typeLabel(CLUB_TYPE_LABELS, type, club.clubTypeOther)}
          </Badge>
        ))}
        actions={
          <RecordDetailActions
            kind={runclubsConfig}
            id={club.id}
            editLabel="Edit Run Club"
            question="Are you sure you want to delete this run club? This action cannot be undone."
          />
        }
      />
      <SyncedDetail
        ownerType="runclub"
        record={club}
        wordpressId={club.wordpressClubId}
        attachments={attachments}
        details={
          <>
            <Card className="records-section">
              <h2 className="card-title">Club Details</h2>
              <InfoList
                items={[
                  {
                    label: 'Club type',
                    value: listText(club.clubType.map((type) => typeLabel(CLUB_TYPE_LABELS, type, club.clubTypeOther))),
                  },
                  { label: 'Location', value: [club.locationAddress, club.locationState].filter(Boolean).join(', ') },
                  { label: 'Founded', value: club.foundedYear !== null ? String(club.foundedYear) : null },
                  { label: 'Members', value: club.membershipCount !== null ? String(club.membershipCount) : null },
                  { label: 'Average attendance', value: club.averageAttendance !== null ? String(club.averageAttendance) : null },
                  { label: 'Meeting times', value: listText(club.meetingTimes) },
                  { label: 'Cost', value: club.cost },
                  { label: 'Website', value: club.websiteUrl && <ExternalLink href={club.websiteUrl} /> },
                  { label: 'Instagram', value: club.instagramUrl && <ExternalLink href={club.instagramUrl} /> },
                  { label: 'Facebook', value: club.facebookUrl && <ExternalLink href={club.facebookUrl} /> },
                  { label: 'Founder Instagram', value: club.founderInstagramUrl && <ExternalLink href={club.founderInstagramUrl} /> },
                  { label: 'Club email', value: club.clubEmail ? <a href={mailtoHref(club.clubEmail)!}>{club.clubEmail}</a> : null },
                  { label: 'Paying member', value: club.isPayingMember ? 'Yes' : 'No' },
                  { label: 'Payment status', value: valueLabel(club.paymentStatus) },
                  { label: 'Social title', value: club.socialTitle },
                  { label: 'Extras', value: multilineText(club.extras) },
                  { label: 'Footnote', value: multilineText(club.footnote) },
                  { label: 'Notes', value: multilineText(club.notes) },
                ]}
              />
            </Card>
            <Schedules schedules={club.schedules} />
          </>
        }
        status={club.isPayingMember ? 'Paying member' : 'Not a paying member'}
        infoTitle="Run Club Info"
        infoButtons={
          <>
            <ExternalButton href={club.websiteUrl}>Visit Website</ExternalButton>
            <ExternalButton href={club.instagramUrl}>Instagram</ExternalButton>
            <ExternalButton href={club.facebookUrl}>Facebook</ExternalButton>
            <ExternalButton href={wordpressAdminEditUrl(env.wordpressAdminUrl, club.wordpressClubId)}>Edit in WordPress</ExternalButton>
          </>
        }
      />
    </div>
  );
}
