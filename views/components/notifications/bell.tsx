import { useEffect, useRef, useState } from 'react';

// The list and its code load on the first open: the header on every page carries only the button and its count.
const loadPanel = () => import('./bell-panel.js');
type PanelModule = Awaited<ReturnType<typeof loadPanel>>;

/** The header's notification bell (issue 33): the unread count from the session, the list on demand. */
export function NotificationBell({ initialUnread }: { initialUnread: number }) {
  const [unread, setUnread] = useState(initialUnread);
  const [open, setOpen] = useState(false);
  const [panel, setPanel] = useState<PanelModule | null>(null);
  const wrap = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | globalThis.KeyboardEvent) => {
      if (event instanceof MouseEvent ? !wrap.current?.contains(event.target as Node) : event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);
  const toggle = () => {
    if (!panel) void loadPanel().then(setPanel);
    setOpen(!open);
  };
  return (
    <div className="bell" ref={wrap}>
      <button
        type="button"
        className="bell-button"
        aria-expanded={open}
        aria-controls="notifications-panel"
        aria-label={unread ? `Notifications, ${unread} unread` : 'Notifications'}
        onClick={toggle}
      >
        <span aria-hidden="true">🔔</span>
        {unread > 0 && (
          <span className="bell-count" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {open && (
        <div id="notifications-panel" className="bell-panel" role="region" aria-label="Notifications">
          {panel ? <panel.BellPanel onUnread={setUnread} onNavigate={() => setOpen(false)} /> : <p className="muted">Loading...</p>}
        </div>
      )}
    </div>
  );
}
