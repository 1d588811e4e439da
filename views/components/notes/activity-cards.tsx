import { useCallback, useEffect, useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useLocation } from 'react-router';
import { messageOf } from '@shared/api-error.js';
import { recordTypeOfSegment } from '@shared/record-types.js';
import { MAX_NOTE_LENGTH, type MentionableUser, type Note, type NoteList, type NoteOwnerType } from '@shared/schemas/notes.js';
import type { TaskPage } from '@shared/schemas/tasks.js';
import { apiRequest } from '@views/data/http.js';
import { useFormat } from '@views/hooks/use-format.js';
import { useCanWrite, useSession } from '@views/hooks/use-session.js';
import { TaskForm, useUsers } from '../tasks/task-form.js';
import { TaskLine, toggleTask } from '../tasks/task-line.js';
import { Badge, Button, Card, CardHeader, EmptyState, Label, Spinner, Textarea } from '../ui/primitives.js';
import { toast } from '../ui/toast.js';
import { NoteBody } from './note-body.js';

const failure = (title: string, error: unknown) => toast({ title, description: messageOf(error, title), variant: 'destructive' });

/** The "@ana" being typed at the caret, if any: the users whose name or email starts with it are offered. */
function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|\s)@([^\s@]{0,40})$/.exec(text.slice(0, caret));
  return match ? { start: caret - match[2]!.length - 1, query: match[2]!.toLowerCase() } : null;
}

/** A note's text box with @mention suggestions (a listbox under it; Enter or a click picks one). */
function NoteEditor({
  value,
  onChange,
  label,
  users,
  autoFocus,
}: {
  value: string;
  onChange(value: string): void;
  label: string;
  users: readonly MentionableUser[];
  autoFocus?: boolean;
}) {
  const id = useId();
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const asked = mentionQuery(value, caret);
  const offered = asked
    ? users
        .filter(
          (u) =>
            u.name
              .toLowerCase()
              .split(' ')
              .some((w) => w.startsWith(asked.query)) || u.email.startsWith(asked.query),
        )
        .slice(0, 6)
    : [];
  const pick = (user: MentionableUser) => {
    if (!asked) return;
    const next = `${value.slice(0, asked.start)}@${user.email} ${value.slice(caret)}`;
    onChange(next);
    setCaret(asked.start + user.email.length + 2);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (offered.length === 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((at) => (at + (event.key === 'ArrowDown' ? 1 : offered.length - 1)) % offered.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      pick(offered[Math.min(active, offered.length - 1)]!);
    }
  };
  return (
    <div className="note-editor">
      <Label htmlFor={id}>{label}</Label>
      <Textarea
        id={id}
        value={value}
        rows={4}
        maxLength={MAX_NOTE_LENGTH}
        autoFocus={autoFocus}
        aria-describedby={`${id}-help`}
        aria-autocomplete="list"
        aria-controls={offered.length ? `${id}-mentions` : undefined}
        onChange={(e) => {
          onChange(e.target.value);
          setCaret(e.target.selectionStart);
          setActive(0);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
      />
      {offered.length > 0 && (
        <ul id={`${id}-mentions`} role="listbox" aria-label="Mention a user" className="note-mentions">
          {offered.map((user, i) => (
            <li key={user.id} role="option" aria-selected={i === active} onMouseDown={(e) => (e.preventDefault(), pick(user))}>
              {user.name} <span className="muted">{user.email}</span>
            </li>
          ))}
        </ul>
      )}
      <p id={`${id}-help`} className="muted note-help">
        **bold**, *italics*, - lists, [links](https://…), @ to mention someone
      </p>
    </div>
  );
}

function NoteItem({ note, users, onChanged }: { note: Note; users: readonly MentionableUser[]; onChanged(): void }) {
  const format = useFormat();
  const { user } = useSession();
  const canWrite = useCanWrite();
  const mine = user !== null && (user.role === 'admin' || note.createdBy === user.id);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(note.body);
  const [pending, setPending] = useState(false);
  async function save(change: { body?: string; pinned?: boolean }) {
    setPending(true);
    try {
      await apiRequest('PUT', `/api/notes/${note.id}`, change);
      setEditing(false);
      onChanged();
    } catch (error) {
      failure('Could not save the note', error);
    } finally {
      setPending(false);
    }
  }
  async function remove() {
    setPending(true);
    try {
      await apiRequest('DELETE', `/api/notes/${note.id}`);
      onChanged();
      toast({
        title: 'Note deleted',
        action: {
          label: 'Undo',
          run: async () => {
            await apiRequest('POST', '/api/deleted/undo', { type: 'note', ids: [note.id] });
            onChanged();
          },
        },
      });
    } catch (error) {
      failure('Could not delete the note', error);
      setPending(false);
    }
  }
  return (
    <li className="note-item">
      <article aria-label={`Note by ${note.authorName}`}>
        <div className="note-meta">
          <strong>{note.authorName}</strong>
          <span className="muted">{format.dateTime(note.createdAt)}</span>
          {note.editedAt && (
            <span className="muted" title={format.dateTime(note.editedAt)}>
              (edited)
            </span>
          )}
          {note.pinned && <Badge tone="info">Pinned</Badge>}
        </div>
        {editing ? (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void save({ body: draft });
            }}
          >
            <NoteEditor value={draft} onChange={setDraft} label="Edit note" users={users} autoFocus />
            <div className="note-actions">
              <Button type="submit" disabled={pending || !draft.trim()}>
                Save note
              </Button>
              <Button variant="outline" onClick={() => (setEditing(false), setDraft(note.body))}>
                Cancel
              </Button>
            </div>
          </form>
        ) : (
          <NoteBody body={note.body} users={users} />
        )}
        {canWrite && !editing && (
          <div className="note-actions">
            <Button variant="ghost" className="btn-sm" disabled={pending} onClick={() => void save({ pinned: !note.pinned })}>
              {note.pinned ? 'Unpin' : 'Pin to top'}
            </Button>
            {mine && (
              <>
                <Button variant="ghost" className="btn-sm" disabled={pending} onClick={() => setEditing(true)}>
                  Edit
                </Button>
                <Button variant="danger-quiet" className="btn-sm" disabled={pending} onClick={() => void remove()}>
                  Delete
                </Button>
              </>
            )}
          </div>
        )}
      </article>
    </li>
  );
}

/** A record's or contact's notes: add, pin, edit, delete (to Recently deleted, with Undo). */
function NotesCard({ ownerType, ownerId }: { ownerType: NoteOwnerType; ownerId: number }) {
  const canWrite = useCanWrite();
  const users = useUsers();
  const [notes, setNotes] = useState<Note[] | null>(null);
  const [draft, setDraft] = useState('');
  const [pending, setPending] = useState(false);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(() => {
    let live = true;
    apiRequest<NoteList>('GET', `/api/notes?entityType=${ownerType}&entityId=${ownerId}`).then(
      (list) => live && setNotes(list.items),
      (error: unknown) => {
        failure('Could not load the notes', error);
        if (live) setNotes([]);
      },
    );
    return () => {
      live = false;
    };
  }, [ownerType, ownerId, version]);
  async function add(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    try {
      await apiRequest('POST', '/api/notes', { entityType: ownerType, entityId: ownerId, body: draft });
      setDraft('');
      toast({ title: 'Note added' });
      reload();
    } catch (error) {
      failure('Could not add the note', error);
    } finally {
      setPending(false);
    }
  }
  return (
    <Card className="notes-card">
      <CardHeader title="Notes" />
      {canWrite && (
        <form onSubmit={(event) => void add(event)} className="note-new">
          <NoteEditor value={draft} onChange={setDraft} label="New note" users={users} />
          <Button type="submit" disabled={pending || !draft.trim()}>
            Add note
          </Button>
        </form>
      )}
      {notes === null ? (
        <Spinner label="Loading notes..." />
      ) : notes.length === 0 ? (
        <EmptyState title="No notes yet" />
      ) : (
        <ul className="note-list" aria-label="Notes">
          {notes.map((note) => (
            <NoteItem key={`${note.id}:${note.updatedAt}`} note={note} users={users} onChanged={reload} />
          ))}
        </ul>
      )}
    </Card>
  );
}

/** A record's or contact's tasks, open first, with Add task. */
function TasksCard({ ownerType, ownerId }: { ownerType: NoteOwnerType; ownerId: number }) {
  const canWrite = useCanWrite();
  const [page, setPage] = useState<TaskPage | null>(null);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(() => {
    let live = true;
    apiRequest<TaskPage>('GET', `/api/tasks?status=all&limit=100&entityType=${ownerType}&entityId=${ownerId}`).then(
      (answer) => live && setPage(answer),
      (error: unknown) => failure('Could not load the tasks', error),
    );
    return () => {
      live = false;
    };
  }, [ownerType, ownerId, version]);
  return (
    <Card className="tasks-card">
      <CardHeader title="Tasks" />
      {canWrite && page && <TaskForm owner={{ type: ownerType, id: ownerId }} today={page.today} onAdded={reload} />}
      {page === null ? (
        <Spinner label="Loading tasks..." />
      ) : page.items.length === 0 ? (
        <EmptyState title="No tasks yet" />
      ) : (
        <ul className="task-list" aria-label="Tasks">
          {page.items.map((task) => (
            <li key={task.id}>
              <TaskLine task={task} onToggle={canWrite ? (t) => void toggleTask(t).then(reload) : undefined} />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/**
 * The notes and tasks of the record or contact whose page this is, from its URL (/events/7, /contacts/12);
 * views/components/notes/activity-tabs.tsx loads this module.
 */
export default function NotesAndTasks() {
  const [segment, id] = useLocation().pathname.split('/').slice(1);
  const ownerType: NoteOwnerType | undefined = segment === 'contacts' ? 'contact' : recordTypeOfSegment(segment ?? '');
  const ownerId = Number(id);
  if (!ownerType || !(ownerId > 0)) return null;
  return (
    <div className="notes-and-tasks">
      <NotesCard ownerType={ownerType} ownerId={ownerId} />
      <TasksCard ownerType={ownerType} ownerId={ownerId} />
    </div>
  );
}
