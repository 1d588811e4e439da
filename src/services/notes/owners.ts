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
  const byType = new Map<NoteOwnerType, Set<number>>();
  for (const { type, id } of owners) byType.set(type, (byType.get(type) ?? new Set()).add(id));
  if (byType.size === 0) return new Map();
  // One statement for every type (a list of tasks names owners of several): each part answers (type, id, n1, n2).
  const [first, ...rest] = [...byType].map(([type, ids]) => {
    const { table, name } = OWNER[type];
    return db(table)
      .whereIn('id', [...ids])
      .select(db.raw('? as ownerType', [type]), 'id', `${name[0]} as n1`, name[1] ? `${name[1]} as n2` : db.raw('NULL as n2'));
  });
  const rows = (await (rest.length ? first!.unionAll(rest) : first!)) as Array<{ ownerType: string; id: number; n1: unknown; n2: unknown }>;
  return new Map(
    rows.map((row) => [
      `${row.ownerType}:${Number(row.id)}`,
      [row.n1, row.n2]
        .map((part) => String(part ?? ''))
        .join(' ')
        .trim(),
    ]),
  );
}

/**
 * Joins to `rows` (a query of `table`, whose rows have an owner, `entityType` and `entityId`, and user ids in
 * `userColumns`) the names a list shows, so a page of fifty tasks is one statement: every lookup is by primary key
 * as the page's rows are read, nothing is materialised. `rows` must name its own columns with the table's name.
 * Read the names with joinedUserName and joinedOwnerName.
 */
export function withNames(rows: Knex.QueryBuilder, table: string, userColumns: readonly string[]): Knex.QueryBuilder {
  rows.select(`${table}.*`);
  userColumns.forEach((column, i) => {
    const alias = `u${i}`;
    rows
      .leftJoin(`users as ${alias}`, `${alias}.id`, `${table}.${column}`)
      .select(`${alias}.firstName as ${column}__first`, `${alias}.lastName as ${column}__last`, `${alias}.email as ${column}__email`);
  });
  for (const [type, { table: ownerTable, name }] of Object.entries(OWNER)) {
    const alias = `o_${type}`;
    rows.leftJoin(`${ownerTable} as ${alias}`, (on) =>
      on.on(`${alias}.id`, '=', `${table}.entityId`).andOnVal(`${table}.entityType`, '=', type),
    );
    name.forEach((column, i) => rows.select(`${alias}.${column} as owner__${type}__${i}`));
  }
  return rows;
}

/** The name of the user in `column` of a row read withNames (null when there is none or it is gone). */
export function joinedUserName(row: Record<string, unknown>, column: string): string | null {
  const email = row[`${column}__email`];
  if (email === null || email === undefined) return null;
  return displayName(row[`${column}__first`], row[`${column}__last`], email);
}

/** The name of the owner of a row read withNames (null when it has none or it is gone). */
export function joinedOwnerName(row: Record<string, unknown>): string | null {
  const type = row.entityType as NoteOwnerType | null;
  if (!type || !(type in OWNER)) return null;
  const parts = OWNER[type].name.map((_, i) => row[`owner__${type}__${i}`]);
  if (parts.every((part) => part === null || part === undefined)) return null;
  return parts
    .map((part) => String(part ?? ''))
    .join(' ')
    .trim();
}

const displayName = (first: unknown, last: unknown, email: unknown) =>
  `${String(first ?? '')} ${String(last ?? '')}`.trim() || String(email);

/** Where a note's or task's owner is shown. */
export const ownerUrl = (type: NoteOwnerType, id: number) =>
  type === 'contact' ? `/contacts/${id}` : `${RECORD_TYPE_INFO[type].path}/${id}`;

/** "Ana Lima", or the email when the user has no name. */
export async function userNames(db: Db, ids: ReadonlyArray<number | null>): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = (await db('users').whereIn('id', wanted).select('id', 'firstName', 'lastName', 'email')) as Array<Record<string, unknown>>;
  return new Map(rows.map((row) => [Number(row.id), displayName(row.firstName, row.lastName, row.email)]));
}
