import * as z from 'zod';
import { RECORD_TYPES, type RecordType } from '../record-types.js';
import { ownerId } from './fields.js';
import { text } from './text.js';

/** What a note or a task can belong to: a record of any of the six types, or a contact. */
export const NOTE_OWNER_TYPES = [...RECORD_TYPES, 'contact'] as const;
export type NoteOwnerType = RecordType | 'contact';

export const MAX_NOTE_LENGTH = 20_000;

const ownerType = z.enum(NOTE_OWNER_TYPES, { message: `entityType must be one of ${NOTE_OWNER_TYPES.join(', ')}` });

const body = text('Write the note')
  .trim()
  .min(1, 'Write the note')
  .max(MAX_NOTE_LENGTH, `A note holds at most ${MAX_NOTE_LENGTH} characters`);

const flag = z.preprocess((value) => (value === 'true' || value === 'on' ? true : value === 'false' ? false : value), z.boolean());

/** POST /api/notes */
export const NoteInputSchema = z.object({ entityType: ownerType, entityId: ownerId, body }).strict();

/** PUT /api/notes/:id: the body, the pin, or both. */
export const NoteUpdateSchema = z
  .object({ body: body.optional(), pinned: flag.optional() })
  .strict()
  .refine((update) => update.body !== undefined || update.pinned !== undefined, { message: 'Send body or pinned' });

/** One note, as the API answers it. */
export interface Note {
  id: number;
  entityType: NoteOwnerType;
  entityId: number;
  body: string;
  pinned: boolean;
  /** The author (null when the user was removed, or the note came from the CLI). */
  createdBy: number | null;
  authorName: string;
  createdAt: string;
  updatedAt: string;
  /** When the text was last changed after it was written; null if never (the "edited" mark). */
  editedAt: string | null;
  /** Users @mentioned in the body. */
  mentions: number[];
}

/** A user a note can @mention (GET /api/notes/mentionable). */
export interface MentionableUser {
  id: number;
  name: string;
  email: string;
}

/** GET /api/notes: pinned notes first, then newest first. */
export interface NoteList {
  items: Note[];
}
