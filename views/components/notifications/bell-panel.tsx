import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { messageOf } from '@shared/api-error.js';
import type { NotificationList } from '@shared/schemas/tasks.js';
import { apiRequest } from '@views/data/http.js';
import { useFormat } from '@views/hooks/use-format.js';
import { Button } from '../ui/primitives.js';

/** The bell's list: my newest notifications, Mark all read, and each one marked read when followed. */
export function BellPanel({ onUnread }: { onUnread(count: number): void }) {
  const format = useFormat();
  const [list, setList] = useState<NotificationList | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    apiRequest<NotificationList>('GET', '/api/notifications').then(
      (answer) => {
        setList(answer);
        onUnread(answer.unread);
      },
      (failure: unknown) => setError(messageOf(failure, 'Could not load the notifications')),
    );
  }, [onUnread]);
  async function markRead(body: { ids: number[] } | { all: true }) {
    try {
      const { unread } = await apiRequest<{ unread: number }>('POST', '/api/notifications/read', body);
      onUnread(unread);
      setList(
        (current) =>
          current && {
            unread,
            items: current.items.map((item) => ('all' in body || body.ids.includes(item.id) ? { ...item, read: true } : item)),
          },
      );
    } catch (failure) {
      setError(messageOf(failure, 'Could not mark them read'));
    }
  }
  if (error) return <p role="alert">{error}</p>;
  if (!list) return <p className="muted">Loading...</p>;
  return (
    <div>
      <div className="bell-panel-header">
        <strong>Notifications</strong>
        {list.unread > 0 && (
          <Button variant="ghost" className="btn-sm" onClick={() => void markRead({ all: true })}>
            Mark all read
          </Button>
        )}
      </div>
      {list.items.length === 0 ? (
        <p className="muted">Nothing new</p>
      ) : (
        <ul className="bell-list">
          {list.items.map((item) => (
            <li key={item.id} className={item.read ? 'bell-item' : 'bell-item bell-unread'}>
              <Link
                to={item.url}
                onClick={() => {
                  if (!item.read) void markRead({ ids: [item.id] });
                  document.getElementById('notifications-panel')?.hidePopover();
                }}
              >
                {!item.read && <span className="visually-hidden">Unread: </span>}
                {item.text}
              </Link>
              <span className="muted bell-when">{format.dateTime(item.createdAt)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
