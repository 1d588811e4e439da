import { messageOf } from '@shared/api-error.js';
import type { Task } from '@shared/schemas/tasks.js';
import { apiRequest } from '@views/data/http.js';
import { useFormat } from '@views/hooks/use-format.js';
import { Badge } from '../ui/primitives.js';
import { toast } from '../ui/toast.js';

/** A task's line: the done box, title, due, assignee. */
export function TaskLine({ task, onToggle, disabled }: { task: Task; onToggle?(task: Task): void; disabled?: boolean }) {
  const format = useFormat();
  return (
    <span className={task.done ? 'task-line task-done' : 'task-line'}>
      <input
        type="checkbox"
        checked={task.done}
        disabled={disabled || !onToggle}
        aria-label={`${task.done ? 'Reopen' : 'Complete'}: ${task.title}`}
        onChange={() => onToggle?.(task)}
      />
      <span className="task-title">{task.title}</span>
      <span className="task-due">
        {format.date(task.dueDate)}
        {task.dueTime && ` ${task.dueTime}`}
      </span>
      {task.overdue && <Badge tone="danger">Overdue</Badge>}
      <span className="muted task-assignee">{task.assigneeName}</span>
    </span>
  );
}

/** Completes or reopens a task and says so. */
export async function toggleTask(task: Task): Promise<Task | null> {
  try {
    const saved = await apiRequest<Task>('PUT', `/api/tasks/${task.id}`, { done: !task.done });
    toast({ title: saved.done ? 'Task completed' : 'Task reopened' });
    return saved;
  } catch (error) {
    toast({ title: 'Could not change the task', description: messageOf(error, 'Could not change the task'), variant: 'destructive' });
    return null;
  }
}
