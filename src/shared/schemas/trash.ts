import { RECORD_TYPE_INFO, RECORD_TYPES } from '../record-types.js';

/** What Recently deleted holds: records of the six types, and notes and tasks (issue 33). */
export const TRASH_TYPES = [...RECORD_TYPES, 'note', 'task'] as const;
export type TrashType = (typeof TRASH_TYPES)[number];

/** "Note" / "notes", "Run Club" / "run clubs". */
export const trashLabel = (type: TrashType): { singular: string; pluralNoun: string } =>
  type === 'note'
    ? { singular: 'Note', pluralNoun: 'notes' }
    : type === 'task'
      ? { singular: 'Task', pluralNoun: 'tasks' }
      : RECORD_TYPE_INFO[type];

/** One entry of Recently deleted (`GET /api/deleted`, /settings/deleted). */
export interface DeletedItem {
  id: number;
  type: TrashType;
  /** The record's own id, which a restore gives back. */
  entityId: number;
  name: string;
  deletedBy: string;
  deletedAt: string;
  holds: { contacts: number; payments: number; files: number };
}
