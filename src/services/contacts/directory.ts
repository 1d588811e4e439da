import type { Knex } from 'knex';
import { decodeRows } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { CONTACT_OWNER_TYPES, RECORD_TYPE_INFO, type ContactOwnerType } from '@shared/record-types.js';
import { ContactsQuerySchema, type ContactOwner, type ContactsQuery, type DirectoryContact } from '@shared/schemas/contacts-directory.js';
import type { ListPage } from '@shared/schemas/records.js';
import { cursorProblems } from '@shared/list-query.js';
import type { AppContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { parseInput } from '../validate.js';
import { CONTACT_INDEX } from '../records/definitions.js';
import { pageByCursor, type OrderRequest, type RowsOfOrder } from '../records/cursor.js';
import {
  applyOrder,
  countOf,
  matchingIds,
  orderOfSegment,
  readCounts,
  rowsAfter,
  type Matches,
  type SortPlan,
} from '../records/queries.js';

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
/** Sort columns the schema declares NOT NULL: a seek reads no NULL range of them. */
const NOT_NULL_SORT_COLUMNS = ['lastName', 'firstName', 'updatedAt'];

/** The directory's order: the sort's columns, then the id, all in the query's direction (one index each). */
const sortPlanOf = (query: ContactsQuery): SortPlan => [
  {
    order: [...SORT_COLUMNS[query.sort].map((column) => [column, query.dir] as const), ['id', query.dir] as const],
    notNull: NOT_NULL_SORT_COLUMNS,
  },
];

/** The filters, on `contacts as r`. */
function withFilters(builder: Knex.QueryBuilder, query: ContactsQuery): Knex.QueryBuilder {
  if (query.ownerType) builder.where('r.entityType', query.ownerType);
  if (query.primary !== undefined) builder.where('r.isPrimary', query.primary);
  // Tags are stored as a JSON list: the quoted tag matches exactly one element.
  if (query.tag) builder.where('r.mailchimpTags', 'like', `%${escapeLike(JSON.stringify(query.tag))}%`);
  return builder;
}

const escapeLike = (value: string) => value.replace(/[!%_]/g, (c) => `!${c}`);
const hasFilters = (query: ContactsQuery) => Boolean(query.ownerType || query.primary !== undefined || query.tag);

/**
 * The contacts the query selects, on `contacts as r`: a search is a case-insensitive substring of the name, email,
 * phone, job title or a tag, answered by the search index (its matches joined by id, so no read of the whole
 * table); null when a search can match nothing.
 */
async function selected(db: Knex, query: ContactsQuery): Promise<{ builder: Knex.QueryBuilder; matches?: Matches } | null> {
  const builder = withFilters(db('contacts as r'), query);
  if (!query.q) return { builder };
  const matches = await matchingIds(db, CONTACT_INDEX, query.q);
  if (!matches) return null;
  builder.join(matches.subquery.clone().as('m'), 'm.recordId', 'r.id');
  return { builder, matches };
}

/** The rows of `builder`, each with its owner's name (`ownerName_<type>` columns). */
function withOwners(db: Knex, builder: Knex.QueryBuilder): Knex.QueryBuilder {
  const rows = builder.select('r.*');
  for (const type of CONTACT_OWNER_TYPES) {
    const alias = `o_${type}`;
    rows.leftJoin(`${RECORD_TYPE_INFO[type].table} as ${alias}`, function joinOwner() {
      this.on(`${alias}.id`, '=', 'r.entityId').andOn('r.entityType', '=', db.raw('?', [type]));
    });
    rows.select(`${alias}.${OWNER_NAME[type]} as ownerName_${type}`);
  }
  return rows;
}

/**
 * The directory's selection for walking it whole (the export): its order, the contacts it selects (`contacts as r`,
 * unordered: a walk reads them on a sort index, which the owners' joins would keep the planner from) and their rows
 * with their owners, by id. Null when a search matches nothing.
 */
export async function directorySelection(
  db: Knex,
  query: ContactsQuery,
): Promise<{ plan: SortPlan; base: () => Knex.QueryBuilder; withOwners: (ids: readonly number[]) => Promise<RawRow[]> } | null> {
  const chosen = await selected(db, query);
  return chosen && { plan: sortPlanOf(query), base: () => chosen.builder.clone().select('r.*'), withOwners: (ids) => rowsOfIds(db, ids) };
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
  const rows = (await withOwners(db, db('contacts as r').whereIn('r.id', [...ids]))) as RawRow[];
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return ids.flatMap((id): RawRow[] => {
    const row = byId.get(id);
    return row ? [row] : [];
  });
}

/**
 * GET /api/contacts: one page of the directory with the total, each contact naming its owner, and the cursors of
 * the pages around it (`after` / `before`, as the record lists: docs/decisions/0067-keyset-pagination.md). Unfiltered,
 * the total is the maintained count; a newest-first search reads its page in the index's own order and stops there.
 */
export async function listDirectory(ctx: AppContext, input: Record<string, unknown>): Promise<ListPage<DirectoryContact>> {
  const query = parseInput(ContactsQuerySchema, input);
  const [problem] = cursorProblems(query);
  if (problem) throw badRequest(problem.message);
  const chosen = await selected(ctx.db, query);
  const counting = async () => {
    if (!chosen) return 0;
    const { builder, matches } = chosen;
    if (!matches && !hasFilters(query)) return countOf((await readCounts(ctx.db, [CONTACT_INDEX.code])).get(CONTACT_INDEX.code));
    const source: Knex.QueryBuilder = matches && !hasFilters(query) ? ctx.db.from(matches.subquery.clone().as('m')) : builder.clone();
    const counted = (await source.count({ n: '*' }).first()) as { n: number | string } | undefined;
    return Number(counted?.n ?? 0);
  };
  // The page's ids come from the sort index alone (or the search's postings), then their rows with their owners: the
  // owners' joins in the ordered read would keep the planner from walking the index.
  const paging = async (request: OrderRequest): Promise<RowsOfOrder> => {
    if (!chosen) return { rows: [], segments: [] };
    const { builder, matches } = chosen;
    const [segment] = request.sort;
    let ids: number[];
    if (matches && !hasFilters(query) && segment.order.length === 1) {
      // Newest (or oldest) first of a search walks the postings in their own order and stops at the page.
      const direction = segment.order[0]![1];
      const postings = matches.subquery.clone().clearSelect().select(`${matches.idColumn} as id`).orderBy(matches.idColumn, direction);
      if (request.after) postings.where(matches.idColumn, direction === 'asc' ? '>' : '<', request.after.id);
      else postings.offset(request.offset);
      ids = ((await postings.limit(request.limit)) as RawRow[]).map((row) => Number(row.id));
    } else if (request.after) {
      const read = await rowsAfter(ctx.db, request.sort, request.after, request.limit, () => builder.clone().select('r.id'));
      ids = read.rows.map((row) => Number(row.id));
    } else {
      const rows = (await applyOrder(builder.clone().select('r.id'), orderOfSegment(segment))
        .limit(request.limit)
        .offset(request.offset)) as RawRow[];
      ids = rows.map((row) => Number(row.id));
    }
    const rows = await rowsOfIds(ctx.db, ids);
    return { rows, segments: rows.map(() => 0) };
  };
  const [{ page, next, prev }, total] = await Promise.all([
    pageByCursor(sortPlanOf(query), { sort: query.sort, dir: query.dir }, query, paging),
    counting(),
  ]);
  return { items: presentDirectoryRows(page.rows), total, next, prev };
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
