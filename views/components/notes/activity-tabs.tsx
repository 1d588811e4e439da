import type { RecordType } from '@shared/record-types.js';
import type { NoteOwnerType } from '@shared/schemas/notes.js';
import { useLoadedAfterHydration } from '@views/hooks/use-loaded-after-hydration.js';
import type { DetailTab } from '../records/detail-tabs.js';
import { Skeleton } from '../ui/primitives.js';

// The cards' code loads after hydration, so it is no part of a detail page's first load.
const loadCards = () => import('./activity-cards.js');

function LazyCard({ card, ownerType, ownerId }: { card: 'notes' | 'tasks'; ownerType: NoteOwnerType; ownerId: number }) {
  const cards = useLoadedAfterHydration(loadCards);
  if (!cards) return <Skeleton className="activity-skeleton" />;
  return card === 'notes' ? (
    <cards.NotesCard ownerType={ownerType} ownerId={ownerId} />
  ) : (
    <cards.TasksCard ownerType={ownerType} ownerId={ownerId} />
  );
}

/** The Notes and Tasks tabs of a record's detail page (issue 33). */
export function activityTabs(ownerType: RecordType, ownerId: number): DetailTab[] {
  return [
    { value: 'notes', label: 'Notes', content: <LazyCard card="notes" ownerType={ownerType} ownerId={ownerId} /> },
    { value: 'tasks', label: 'Tasks', content: <LazyCard card="tasks" ownerType={ownerType} ownerId={ownerId} /> },
  ];
}

/** A contact page's notes and tasks. */
export function ContactActivity({ contactId }: { contactId: number }) {
  return (
    <div className="contact-activity">
      <LazyCard card="notes" ownerType="contact" ownerId={contactId} />
      <LazyCard card="tasks" ownerType="contact" ownerId={contactId} />
    </div>
  );
}
