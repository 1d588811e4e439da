import type { Knex } from 'knex';
import { decodeRows } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { CONTACT_OWNER_TYPES, RECORD_TYPE_INFO, type ContactOwnerType } from '@shared/record-types.js';
import { ContactsQuerySchema, type ContactOwner, type ContactsQuery, type DirectoryContact } from '@shared/schemas/contacts-directory.js';
import type { Page } from '@shared/schemas/records.js';
import type { AppContext } from '../context.js';
import { notFound } from '../errors.js';
import { parseInput } from '../validate.js';

type RawRow = Record<string, unknown>;

/** The column that names each owner type's records. */
const OWNER_NAME: Record<ContactOwnerType, string> = {
  event: 'eventName',
  professional: 'businessName',
  runclub: 'clubName',
  brand: 'brandName',
  media: 'mediaName',
};

const SORT_COLUMNS: Record<ContactsQuery['sort'], string[]> = {
  newest: [],
  name: ['lastName', 'firstName'],
  email: ['email'],
  jobTitle: ['jobTitle'],
  updatedAt: ['updatedAt'],
};

/** The search and filters, on `contacts as c`. Search is a case-insensitive substring of name, email, phone, job title or tags. */
function filtered(db: Knex, query: ContactsQuery): Knex.QueryBuilder {
  const builder = db('contacts as c');
  if (query.ownerType) builder.where('c.entityType', query.ownerType);
  if (query.primary !== undefined) builder.where('c.isPrimary', query.primary);
  // Tags are stored as a JSON list: the quoted tag matches exactly one element.
  if (query.tag) builder.where('c.mailchimpTags', 'like', `%${escapeLike(JSON.stringify(query.tag))}%`);
  if (query.q) {
    const pattern = `%${escapeLike(query.q.toLowerCase())}%`;
    builder.where((where) => {
      for (const column of ['firstName', 'lastName', 'email', 'phone', 'jobTitle', 'mailchimpTags']) {
        where.orWhereRaw("LOWER(??) LIKE ? ESCAPE '!'", [`c.${column}`, pattern]);
      }
      where.orWhereRaw("LOWER(CONCAT(??, ' ', ??)) LIKE ? ESCAPE '!'", ['c.firstName', 'c.lastName', pattern]);
    });
  }
  return builder;
}

const escapeLike = (value: string) => value.replace(/[!%_]/g, (c) => `!${c}`);

/** The directory's rows in its order, each with its owner's name (`ownerName_<type>` columns): a page or the export. */
export function directoryRows(db: Knex, query: ContactsQuery): Knex.QueryBuilder {
  const rows = filtered(db, query).select('c.*');
  for (const type of CONTACT_OWNER_TYPES) {
    const alias = `o_${type}`;
    rows.leftJoin(`${RECORD_TYPE_INFO[type].table} as ${alias}`, function joinOwner() {
      this.on(`${alias}.id`, '=', 'c.entityId').andOn('c.entityType', '=', db.raw('?', [type]));
    });
    rows.select(`${alias}.${OWNER_NAME[type]} as ownerName_${type}`);
  }
  for (const column of SORT_COLUMNS[query.sort]) rows.orderBy(`c.${column}`, query.dir);
  return rows.orderBy('c.id', query.dir);
}

const OWNER_COLUMNS = CONTACT_OWNER_TYPES.map((type) => `ownerName_${type}`);

/** A directory row as the wire has it: the contact and its owner. */
export function presentDirectoryRow(row: RawRow): DirectoryContact {
  const [contact] = decodeRows<DirectoryContact>(columnKinds.contacts, [row], OWNER_COLUMNS);
  return {
    ...contact!,
    owner: { type: contact!.entityType, id: contact!.entityId, name: String(row[`ownerName_${contact!.entityType}`] ?? '') },
  };
}

/** GET /api/contacts: one page of the directory with the total, each contact naming its owner. */
export async function listDirectory(ctx: AppContext, input: Record<string, unknown>): Promise<Page<DirectoryContact>> {
  const query = parseInput(ContactsQuerySchema, input);
  const counted = (await filtered(ctx.db, query).count({ n: '*' }).first()) as { n: number | string } | undefined;
  const rows = (await directoryRows(ctx.db, query).limit(query.limit).offset(query.offset)) as RawRow[];
  return { items: rows.map(presentDirectoryRow), total: Number(counted?.n ?? 0) };
}

/** One contact with its owner's name, in one query (the contact detail and edit pages name the owner). */
export async function getContactWithOwner(ctx: AppContext, id: number): Promise<DirectoryContact> {
  const [row] = (await directoryRows(ctx.db, parseInput(ContactsQuerySchema, {})).where('c.id', id).limit(1)) as RawRow[];
  if (!row) throw notFound('Contact not found');
  return presentDirectoryRow(row);
}

/** A record that contacts belong to, by name (the add-contact page names it); its not-found error when it does not exist. */
export async function getContactOwner(ctx: AppContext, type: ContactOwnerType, id: number): Promise<ContactOwner> {
  const row = (await ctx.db(RECORD_TYPE_INFO[type].table).where({ id }).first(`${OWNER_NAME[type]} as name`)) as
    { name: unknown } | undefined;
  if (!row) throw notFound(RECORD_TYPE_INFO[type].notFound);
  return { type, id, name: String(row.name ?? '') };
}
