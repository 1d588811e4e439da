import * as z from 'zod';
import { blankToNull, calendarDate, ownerId } from './fields.js';
import { NOTE_OWNER_TYPES, type NoteOwnerType } from './notes.js';
import { text } from './text.js';

const title = text('Title is required').trim().min(1, 'Title is required').max(200, 'A title holds at most 200 characters');
const notes = z.preprocess(blankToNull, text().trim().max(10_000, 'Notes hold at most 10000 characters').nullable());
const dueDate = calendarDate.refine((value) => value !== null, 'Due date is required');
const dueTime = z.preprocess(
  blankToNull,
  text()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Due time must be HH:MM (24 hours)')
    .nullable(),
);
const assigneeId = z.preprocess(
  (value) => (typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value),
  z.number({ message: 'assigneeId must be a user id' }).int('assigneeId must be a user id').positive('assigneeId must be a user id'),
);
const entityType = z.preprocess(
  blankToNull,
  z.enum(NOTE_OWNER_TYPES, { message: `entityType must be one of ${NOTE_OWNER_TYPES.join(', ')}` }).nullable(),
);
const entityId = z.preprocess(blankToNull, ownerId.nullable());
const done = z.preprocess((value) => (value === 'true' || value === 'on' ? true : value === 'false' ? false : value), z.boolean());

const linked = (task: { entityType?: unknown; entityId?: unknown }) => (task.entityType == null) === (task.entityId == null);
const LINK_MESSAGE = { message: 'Give both entityType and entityId, or neither', path: ['entityId'] };

/** POST /api/tasks */
export const TaskInputSchema = z
  .object({
    title,
    dueDate,
    dueTime: dueTime.optional().default(null),
    assigneeId,
    entityType: entityType.optional().default(null),
    entityId: entityId.optional().default(null),
    notes: notes.optional().default(null),
  })
  .strict()
  .refine(linked, LINK_MESSAGE);

/** PUT /api/tasks/:id: any of the fields, and `done` to complete (or reopen) it. */
export const TaskUpdateSchema = z
  .object({
    title: title.optional(),
    dueDate: dueDate.optional(),
    dueTime: dueTime.optional(),
    assigneeId: assigneeId.optional(),
    entityType: entityType.optional(),
    entityId: entityId.optional(),
    notes: notes.optional(),
    done: done.optional(),
  })
  .strict()
  .refine((task) => (task.entityType === undefined) === (task.entityId === undefined) && linked(task), LINK_MESSAGE);

/** One task, as the API answers it. */
export interface Task {
  id: number;
  title: string;
  notes: string | null;
  dueDate: string;
  /** 'HH:MM' in the organisation's time zone, or null for the whole day. */
  dueTime: string | null;
  assigneeId: number;
  assigneeName: string;
  entityType: NoteOwnerType | null;
  entityId: number | null;
  /** The linked record's or contact's name (null when none, or it was deleted). */
  entityName: string | null;
  done: boolean;
  doneAt: string | null;
  doneBy: number | null;
  doneByName: string | null;
  createdBy: number | null;
  createdAt: string;
  updatedAt: string;
  /** Open and past its due day (or its due time today), in the organisation's time zone. */
  overdue: boolean;
}

/** GET /api/tasks: one page, `next` the cursor of the page after it. */
export interface TaskPage {
  items: Task[];
  next: string | null;
  /** The organisation's today (YYYY-MM-DD), which the page's groups are made from. */
  today: string;
}

/** A notification of the header's bell. */
export interface AppNotification {
  id: number;
  kind: 'mention' | 'assignment' | 'due' | 'alert';
  text: string;
  /** Where it leads: the record or contact, My tasks, or (an alert of a failing job) the Jobs page. */
  url: string;
  createdAt: string;
  read: boolean;
}

export interface NotificationList {
  items: AppNotification[];
  unread: number;
}

/** The counts the layout shows on every page (with the session): open tasks due by today, unread notifications. */
export interface AttentionCounts {
  tasksDue: number;
  unread: number;
}
