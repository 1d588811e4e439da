import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useLoaderData, useRevalidator } from 'react-router';
import type { Task, TaskPage } from '@shared/schemas/tasks.js';
import { dataSource, gated } from '@views/data/source.js';
import { useCanWrite } from '@views/hooks/use-session.js';
import { TaskLine, toggleTask } from '@views/components/tasks/task-line.js';
import { TaskForm } from '@views/components/tasks/task-form.js';
import { Card, EmptyState } from '@views/components/ui/primitives.js';
import { RECORD_TYPE_INFO } from '@shared/record-types.js';

interface TasksData {
  open: TaskPage;
  done: TaskPage;
}

export const loader = gated(async ({ context }): Promise<TasksData> => {
  const ds = dataSource(context);
  const [open, done] = await Promise.all([
    ds.tasks({ assignee: 'me', status: 'open', limit: '200' }),
    ds.tasks({ assignee: 'me', status: 'done', limit: '20' }),
  ]);
  return { open, done };
});

const linkOf = (task: Task) =>
  task.entityType && task.entityId !== null
    ? task.entityType === 'contact'
      ? `/contacts/${task.entityId}`
      : `${RECORD_TYPE_INFO[task.entityType].path}/${task.entityId}`
    : null;

/** My tasks: overdue, today, upcoming and recently done; j/k (or the arrows) move, x or Space completes. */
export function Component() {
  const { open, done } = useLoaderData() as TasksData;
  const canWrite = useCanWrite();
  const revalidator = useRevalidator();
  const today = open.today;
  const sections: Array<{ title: string; tasks: Task[] }> = [
    { title: 'Overdue', tasks: open.items.filter((t) => t.overdue) },
    { title: 'Today', tasks: open.items.filter((t) => !t.overdue && t.dueDate === today) },
    { title: 'Upcoming', tasks: open.items.filter((t) => !t.overdue && t.dueDate > today) },
    { title: 'Done', tasks: done.items },
  ];
  const order = sections.flatMap((section) => section.tasks);
  const [focusedId, setFocusedId] = useState<number | null>(null);
  const [pending, setPending] = useState(false);
  const rows = useRef(new Map<number, HTMLLIElement>());
  const current = order.find((task) => task.id === focusedId) ?? order[0];
  // A task just completed (or reopened) keeps the focus once it shows in its new section.
  const refocus = useRef<{ id: number; done: boolean } | null>(null);
  useEffect(() => {
    const wanted = refocus.current;
    if (!wanted || !order.some((task) => task.id === wanted.id && task.done === wanted.done)) return;
    refocus.current = null;
    rows.current.get(wanted.id)?.focus();
  });

  const move = (by: number) => {
    if (!current) return;
    const at = order.indexOf(current);
    const next = order[Math.max(0, Math.min(order.length - 1, at + by))];
    if (next) {
      setFocusedId(next.id);
      rows.current.get(next.id)?.focus();
    }
  };
  const toggle = async (task: Task) => {
    if (!canWrite || pending) return;
    setPending(true);
    const saved = await toggleTask(task);
    setPending(false);
    if (saved) {
      setFocusedId(saved.id);
      refocus.current = { id: saved.id, done: saved.done };
      await revalidator.revalidate();
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const key = event.key;
    if (key === 'j' || key === 'ArrowDown') move(1);
    else if (key === 'k' || key === 'ArrowUp') move(-1);
    else if ((key === 'x' || key === ' ') && current) void toggle(current);
    else return;
    event.preventDefault();
  };

  return (
    <div className="page tasks-page">
      <div className="page-header">
        <h1>My tasks</h1>
      </div>
      {canWrite && (
        <Card className="tasks-add">
          <TaskForm today={today} onAdded={() => void revalidator.revalidate()} />
        </Card>
      )}
      <p id="tasks-keys" className="muted">
        Keyboard: j and k (or the arrow keys) move between tasks{canWrite ? '; x or Space completes or reopens the one in focus' : ''}.
      </p>
      {/* The key handling of the rows inside: each row is a focusable list item. */}
      <div className="tasks-sections" onKeyDown={onKeyDown}>
        {sections.map((section) => (
          <section key={section.title} aria-labelledby={`tasks-${section.title}`} className="tasks-section">
            <h2 id={`tasks-${section.title}`}>
              {section.title} <span className="muted">({section.tasks.length})</span>
            </h2>
            {section.tasks.length === 0 ? (
              <EmptyState title={section.title === 'Done' ? 'Nothing done yet' : 'Nothing here'} />
            ) : (
              <ul className="task-list" aria-label={section.title}>
                {section.tasks.map((task) => {
                  const link = linkOf(task);
                  return (
                    <li
                      key={task.id}
                      ref={(node) => {
                        if (node) rows.current.set(task.id, node);
                        else rows.current.delete(task.id);
                      }}
                      className="task-row"
                      tabIndex={task === current ? 0 : -1}
                      aria-describedby="tasks-keys"
                      aria-keyshortcuts={canWrite ? 'j k x Space' : 'j k'}
                      onFocus={() => setFocusedId(task.id)}
                    >
                      <TaskLine task={task} onToggle={canWrite ? (t) => void toggle(t) : undefined} disabled={pending} />
                      {link && (
                        <a href={link} className="task-link" tabIndex={-1}>
                          {task.entityName ?? 'Deleted record'}
                        </a>
                      )}
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        ))}
      </div>
    </div>
  );
}
