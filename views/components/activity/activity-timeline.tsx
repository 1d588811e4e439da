import { TIMELINE_KIND_LABELS } from '@shared/activity.js';
import { useLoadedAfterHydration } from '@views/hooks/use-loaded-after-hydration.js';

const loadEntries = () => import('./activity-entries.js');

const CONTACT_KINDS = {
  note: TIMELINE_KIND_LABELS.note,
  task: TIMELINE_KIND_LABELS.task,
  change: TIMELINE_KIND_LABELS.change,
  mailchimp: TIMELINE_KIND_LABELS.mailchimp,
};

/**
 * One timeline of a record or a contact (issue 33 point 4; docs/decisions/0106): its notes, tasks, changes,
 * payments, files, contacts and Mailchimp pushes, newest first, filtered by kind. `apiPath`: the record's or
 * contact's API path (/api/events/7); the entries load after hydration.
 */
export function ActivityTimeline({ apiPath, contact = false }: { apiPath: string; contact?: boolean }) {
  const entries = useLoadedAfterHydration(loadEntries);
  return (
    <section className="card activity-timeline" aria-label="Activity">
      <h2 className="card-title">Activity</h2>
      {entries ? (
        <entries.ActivityEntries
          url={`${apiPath}/activity`}
          kinds={contact ? CONTACT_KINDS : TIMELINE_KIND_LABELS}
          label="Activity timeline"
        />
      ) : (
        <p className="muted">Loading activity...</p>
      )}
    </section>
  );
}
