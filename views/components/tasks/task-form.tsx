import { useEffect, useId, useState, type FormEvent } from 'react';
import { messageOf } from '@shared/api-error.js';
import type { MentionableUser, NoteOwnerType } from '@shared/schemas/notes.js';
import type { Task } from '@shared/schemas/tasks.js';
import { apiRequest } from '@views/data/http.js';
import { useSession } from '@views/hooks/use-session.js';
import { Button, Input, Label } from '../ui/primitives.js';
import { toast } from '../ui/toast.js';

let usersRequest: Promise<MentionableUser[]> | null = null;
/** The users a task can be assigned to or a note can mention, read once per page load. */
function loadUsers(): Promise<MentionableUser[]> {
  usersRequest ??= apiRequest<MentionableUser[]>('GET', '/api/notes/mentionable').catch((error: unknown) => {
    usersRequest = null;
    throw error;
  });
  return usersRequest;
}

export function useUsers(): MentionableUser[] {
  const [users, setUsers] = useState<MentionableUser[]>([]);
  useEffect(() => {
    let mounted = true;
    loadUsers().then(
      (list) => mounted && setUsers(list),
      () => undefined,
    );
    return () => {
      mounted = false;
    };
  }, []);
  return users;
}

/** "Add task": title, due day and optional time, assignee (me by default), optional notes; linked to `owner` if given. */
export function TaskForm({
  owner,
  today,
  onAdded,
}: {
  owner?: { type: NoteOwnerType; id: number };
  today?: string;
  onAdded(task: Task): void;
}) {
  const { user } = useSession();
  const users = useUsers();
  const id = useId();
  const [title, setTitle] = useState('');
  const [dueDate, setDueDate] = useState(today ?? '');
  const [dueTime, setDueTime] = useState('');
  const [assigneeId, setAssigneeId] = useState(String(user?.id ?? ''));
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      const task = await apiRequest<Task>('POST', '/api/tasks', {
        title,
        dueDate,
        dueTime,
        assigneeId,
        ...(owner ? { entityType: owner.type, entityId: owner.id } : {}),
      });
      setTitle('');
      setDueTime('');
      toast({ title: 'Task added' });
      onAdded(task);
    } catch (failure) {
      setError(messageOf(failure, 'Could not add the task'));
    } finally {
      setPending(false);
    }
  }
  return (
    <form className="task-form" onSubmit={(event) => void submit(event)} aria-label="Add task">
      <div className="task-form-field task-form-title">
        <Label htmlFor={`${id}-title`} required>
          Task
        </Label>
        <Input id={`${id}-title`} value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} required />
      </div>
      <div className="task-form-field">
        <Label htmlFor={`${id}-date`} required>
          Due date
        </Label>
        <Input id={`${id}-date`} type="date" value={dueDate} onChange={(e) => setDueDate(e.target.value)} required />
      </div>
      <div className="task-form-field">
        <Label htmlFor={`${id}-time`}>Due time</Label>
        <Input id={`${id}-time`} type="time" value={dueTime} onChange={(e) => setDueTime(e.target.value)} />
      </div>
      <div className="task-form-field">
        <Label htmlFor={`${id}-assignee`}>Assignee</Label>
        <select id={`${id}-assignee`} className="input" value={assigneeId} onChange={(e) => setAssigneeId(e.target.value)}>
          {users.length === 0 && user && <option value={user.id}>Me</option>}
          {users.map((u) => (
            <option key={u.id} value={u.id}>
              {u.id === user?.id ? `${u.name} (me)` : u.name}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" disabled={pending}>
        Add task
      </Button>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
