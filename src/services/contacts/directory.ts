import type { Knex } from 'knex';
import { decodeRows } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { CONTACT_OWNER_TYPES, RECORD_TYPE_INFO, type ContactOwnerType } from '@shared/record-types.js';
import { ContactsQuerySchema, type ContactOwner, type ContactsQuery, type DirectoryContact } from '@shared/schemas/contacts-directory.js';
import type { Page } from '@shared/schemas/records.js';
import type { AppContext } from '../context.js';
import { notFound } from '../errors.js';
import { parseInput } from '../validate.js';
import { CONTACT_INDEX } from '../records/definitions.js';
import { countOf, matchingIds, readCounts, type Matches } from '../records/queries.js';

type RawRow = Record<string, unknown>;
const DEFAULT_QUERY = parseInput(ContactsQuerySchema, {});

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

/** The filters, on `contacts as c`. */
function withFilters(builder: Knex.QueryBuilder, query: ContactsQuery): Knex.QueryBuilder {
  if (query.ownerType) builder.where('c.entityType', query.ownerType);
  if (query.primary !== undefined) builder.where('c.isPrimary', query.primary);
  // Tags are stored as a JSON list: the quoted tag matches exactly one element.
  if (query.tag) builder.where('c.mailchimpTags', 'like', `%${escapeLike(JSON.stringify(query.tag))}%`);
  return builder;
}

const escapeLike = (value: string) => value.replace(/[!%_]/g, (c) => `!${c}`);
const hasFilters = (query: ContactsQuery) => Boolean(query.ownerType || query.primary !== undefined || query.tag);

/**
 * The contacts the query selects, on `contacts as c`: a search is a case-insensitive substring of the name, email,
 * phone, job title or a tag, answered by the search index (its matches joined by id, so no read of the whole
 * table); null when a search can match nothing.
 */
async function selected(db: Knex, query: ContactsQuery): Promise<{ builder: Knex.QueryBuilder; matches?: Matches } | null> {
  const builder = withFilters(db('contacts as c'), query);
  if (!query.q) return { builder };
  const matches = await matchingIds(db, CONTACT_INDEX, query.q);
  if (!matches) return null;
  builder.join(matches.subquery.clone().as('m'), 'm.recordId', 'c.id');
  return { builder, matches };
}

/** The rows of `builder` in the query's order, each with its owner's name (`ownerName_<type>` columns). */
function withOwners(db: Knex, builder: Knex.QueryBuilder, query: ContactsQuery): Knex.QueryBuilder {
  const rows = builder.select('c.*');
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

/**
 * The directory's rows in its order, each with its owner's name (the export reads it whole), or null when a search
 * matches nothing. Wrapped: a query builder is a thenable, so an async function returning it bare would run it.
 */
export async function directoryRows(db: Knex, query: ContactsQuery): Promise<{ rows: Knex.QueryBuilder } | null> {
  const chosen = await selected(db, query);
  return chosen && { rows: withOwners(db, chosen.builder, query) };
}

const OWNER_COLUMNS = CONTACT_OWNER_TYPES.map((type) => `ownerName_${type}`);

/** Directory rows (of one query) as the wire has them: each contact and its owner. */
export function presentDirectoryRows(rows: readonly RawRow[]): DirectoryContact[] {
  return decodeRows<DirectoryContact>(columnKinds.contacts, rows, OWNER_COLUMNS).map((contact, i) => ({
    ...contact,
    owner: { type: contact.entityType, id: contact.entityId, name: String(rows[i]![`ownerName_${contact.entityType}`] ?? '') },
  }));
}

/** The rows of the given ids with their owners, in the order of the ids. */
async function rowsOfIds(db: Knex, ids: readonly number[]): Promise<RawRow[]> {
  if (ids.length === 0) return [];
  const rows = (await withOwners(db, db('contacts as c').whereIn('c.id', [...ids]), DEFAULT_QUERY)) as RawRow[];
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return ids.flatMap((id): RawRow[] => {
    const row = byId.get(id);
    return row ? [row] : [];
  });
}

/**
 * GET /api/contacts: one page of the directory with the total, each contact naming its owner. Unfiltered, the total
 * is the maintained count; a newest-first search reads its page in the index's own order and stops there.
 */
export async function listDirectory(ctx: AppContext, input: Record<string, unknown>): Promise<Page<DirectoryContact>> {
  const query = parseInput(ContactsQuerySchema, input);
  const chosen = await selected(ctx.db, query);
  if (!chosen) return { items: [], total: 0 };
  const { builder, matches } = chosen;
  const counting = async () => {
    if (!matches && !hasFilters(query)) return countOf((await readCounts(ctx.db, [CONTACT_INDEX.code])).get(CONTACT_INDEX.code));
    const source: Knex.QueryBuilder = matches && !hasFilters(query) ? ctx.db.from(matches.subquery.clone().as('m')) : builder.clone();
    const counted = (await source.count({ n: '*' }).first()) as { n: number | string } | undefined;
    return Number(counted?.n ?? 0);
  };
  const paging = async () => {
    if (matches && !hasFilters(query) && query.sort === 'newest' && query.dir === 'desc') {
      const ids = (await matches.subquery
        .clone()
        .clearSelect()
        .select(`${matches.idColumn} as recordId`)
        .orderBy(matches.idColumn, 'desc')
        .limit(query.limit)
        .offset(query.offset)) as Array<{ recordId: number }>;
      return rowsOfIds(
        ctx.db,
        ids.map((row) => Number(row.recordId)),
      );
    }
    return (await withOwners(ctx.db, builder.clone(), query).limit(query.limit).offset(query.offset)) as RawRow[];
  };
  const [rows, total] = await Promise.all([paging(), counting()]);
  return { items: presentDirectoryRows(rows), total };
}

/** One contact with its owner's name, in one query (the contact detail and edit pages name the owner). */
export async function getContactWithOwner(ctx: AppContext, id: number): Promise<DirectoryContact> {
  const [row] = await rowsOfIds(ctx.db, [id]);
  if (!row) throw notFound('Contact not found');
  return presentDirectoryRows([row])[0]!;
}

/** A record that contacts belong to, by name (the add-contact page names it); its not-found error when it does not exist. */
export async function getContactOwner(ctx: AppContext, type: ContactOwnerType, id: number): Promise<ContactOwner> {
  const row = (await ctx.db(RECORD_TYPE_INFO[type].table).where({ id }).first(`${OWNER_NAME[type]} as name`)) as
    { name: unknown } | undefined;
  if (!row) throw notFound(RECORD_TYPE_INFO[type].notFound);
  return { type, id, name: String(row.name ?? '') };
}
