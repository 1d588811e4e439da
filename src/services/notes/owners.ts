import type { Knex } from 'knex';
import { RECORD_TYPE_INFO } from '@shared/record-types.js';
import type { NoteOwnerType } from '@shared/schemas/notes.js';
import { notFound } from '../errors.js';

type Db = Knex | Knex.Transaction;

/** The table and display name of what a note or a task belongs to: a record of the six types, or a contact. */
const OWNER: Record<NoteOwnerType, { table: string; name: readonly string[]; notFound: string }> = {
  event: { table: RECORD_TYPE_INFO.event.table, name: ['eventName'], notFound: RECORD_TYPE_INFO.event.notFound },
  professional: { table: RECORD_TYPE_INFO.professional.table, name: ['businessName'], notFound: RECORD_TYPE_INFO.professional.notFound },
  runclub: { table: RECORD_TYPE_INFO.runclub.table, name: ['clubName'], notFound: RECORD_TYPE_INFO.runclub.notFound },
  brand: { table: RECORD_TYPE_INFO.brand.table, name: ['brandName'], notFound: RECORD_TYPE_INFO.brand.notFound },
  media: { table: RECORD_TYPE_INFO.media.table, name: ['mediaName'], notFound: RECORD_TYPE_INFO.media.notFound },
  influencer: { table: RECORD_TYPE_INFO.influencer.table, name: ['firstName', 'lastName'], notFound: RECORD_TYPE_INFO.influencer.notFound },
  contact: { table: 'contacts', name: ['firstName', 'lastName'], notFound: 'Contact not found' },
};

/** Throws the owner's 404 unless it exists. */
export async function assertNoteOwner(db: Db, type: NoteOwnerType, id: number): Promise<void> {
  const row = await db(OWNER[type].table).where({ id }).first('id');
  if (!row) throw notFound(OWNER[type].notFound);
}

/** The names of the given owners, by "type:id" (a missing owner has none). */
export async function ownerNames(db: Db, owners: ReadonlyArray<{ type: NoteOwnerType; id: number }>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const byType = new Map<NoteOwnerType, number[]>();
  for (const { type, id } of owners) byType.set(type, [...(byType.get(type) ?? []), id]);
  for (const [type, ids] of byType) {
    const { table, name } = OWNER[type];
    const rows = (await db(table)
      .whereIn('id', [...new Set(ids)])
      .select('id', ...name)) as Array<Record<string, unknown>>;
    for (const row of rows)
      out.set(
        `${type}:${Number(row.id)}`,
        name
          .map((column) => String(row[column] ?? ''))
          .join(' ')
          .trim(),
      );
  }
  return out;
}

/** Where a note's or task's owner is shown. */
export const ownerUrl = (type: NoteOwnerType, id: number) =>
  type === 'contact' ? `/contacts/${id}` : `${RECORD_TYPE_INFO[type].path}/${id}`;

/** "Ana Lima", or the email when the user has no name. */
export async function userNames(db: Db, ids: ReadonlyArray<number | null>): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = (await db('users').whereIn('id', wanted).select('id', 'firstName', 'lastName', 'email')) as Array<Record<string, unknown>>;
  return new Map(
    rows.map((row) => [Number(row.id), `${String(row.firstName ?? '')} ${String(row.lastName ?? '')}`.trim() || String(row.email)]),
  );
}
