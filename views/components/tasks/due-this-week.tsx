import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { messageOf } from '@shared/api-error.js';
import type { TaskPage } from '@shared/schemas/tasks.js';
import { apiRequest } from '@views/data/http.js';
import { useFormat } from '@views/hooks/use-format.js';
import { Badge, Card, CardHeader, Skeleton } from '../ui/primitives.js';

/** The dashboard's "Due this week" card: my open tasks overdue or due in the next seven days, read after the page shows. */
export function DueThisWeek() {
  const format = useFormat();
  const [tasks, setTasks] = useState<TaskPage['items'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    Promise.all([
      apiRequest<TaskPage>('GET', '/api/tasks?assignee=me&due=overdue&limit=10'),
      apiRequest<TaskPage>('GET', '/api/tasks?assignee=me&due=week&limit=10'),
    ]).then(
      ([overdue, week]) => setTasks([...overdue.items, ...week.items.filter((task) => !task.overdue)]),
      (failure: unknown) => setError(messageOf(failure, 'Could not load the tasks')),
    );
  }, []);
  return (
    <Card className="dashboard-block" data-testid="dashboard-tasks">
      <CardHeader
        title="Due this week"
        actions={
          <Link to="/tasks" className="dashboard-more">
            My tasks
          </Link>
        }
      />
      {error ? (
        <p className="muted">{error}</p>
      ) : tasks === null ? (
        <Skeleton className="dashboard-skeleton" />
      ) : tasks.length === 0 ? (
        <p className="dashboard-summary">Nothing due this week</p>
      ) : (
        <ul className="dashboard-list">
          {tasks.map((task) => (
            <li key={task.id}>
              <span className="dashboard-when">
                {format.date(task.dueDate)}
                {task.dueTime && ` ${task.dueTime}`}
              </span>
              <span className="dashboard-name">{task.title}</span>
              {task.overdue && <Badge tone="danger">Overdue</Badge>}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
