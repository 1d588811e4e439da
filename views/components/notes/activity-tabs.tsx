import { useLoadedAfterHydration } from '@views/hooks/use-loaded-after-hydration.js';

// The cards' code loads after hydration, so it is no part of a detail page's first load.
const loadCards = () => import('./activity-cards.js');

/**
 * The notes and tasks of the record or contact whose page this is (issue 33): a detail page's Activity tab, a
 * contact's page. The owner comes from the page's URL (/events/7, /contacts/12), so the pages pass nothing.
 */
export function NotesAndTasks() {
  const cards = useLoadedAfterHydration(loadCards);
  return cards && <cards.default />;
}
