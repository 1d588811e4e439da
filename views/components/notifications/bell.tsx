import { useEffect, useState } from 'react';
import { useSession } from '@views/hooks/use-session.js';

// The list and its code load on the first open: the header on every page carries only the button and its count.
const loadPanel = () => import('./bell-panel.js');
const PANEL_ID = 'notifications-panel';

/**
 * The header's notification bell (issue 33), loaded after hydration: the unread count from the session, the list in a
 * native popover (it closes on a click elsewhere or Escape without code of ours) whose content loads on the first
 * open. It also marks My tasks in the navigation with the number of my open tasks due by today: an attribute the
 * stylesheet draws, and the link's name for screen readers.
 */
export function NotificationBell() {
  const { attention } = useSession();
  const [unread, setUnread] = useState(attention?.unread ?? 0);
  const [panel, setPanel] = useState<Awaited<ReturnType<typeof loadPanel>> | null>(null);
  const due = attention?.tasksDue ?? 0;
  useEffect(() => {
    for (const link of document.querySelectorAll<HTMLAnchorElement>('a.nav-link[href="/tasks"]')) {
      if (due > 0) {
        link.dataset.count = String(due);
        link.setAttribute('aria-label', `My tasks, ${due} due today or overdue`);
      }
    }
  });
  return (
    <>
      <button
        type="button"
        className="bell-button"
        popoverTarget={PANEL_ID}
        aria-label={unread ? `Notifications, ${unread} unread` : 'Notifications'}
        onClick={() => void loadPanel().then(setPanel)}
      >
        {/* Drawn, not an emoji: not every system has a font with the bell. */}
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          width="18"
          height="18"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
          <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        </svg>
        {unread > 0 && (
          <span className="bell-count" aria-hidden="true">
            {unread}
          </span>
        )}
      </button>
      <div id={PANEL_ID} popover="auto" className="bell-panel" role="region" aria-label="Notifications">
        {panel && <panel.BellPanel onUnread={setUnread} />}
      </div>
    </>
  );
}
