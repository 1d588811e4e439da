import type { Knex } from 'knex';
import { encodeRow, encodeTimestamp } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import { type ListPage, type ListQuery, type RecordDetail, type RecordItem, type WordpressUrl } from '@shared/schemas/records.js';
import { deleteOwnedRows } from '../attachments/owned.js';
import { childRowsOf, putInTrash } from '../trash/service.js';
import type { Actor, AppContext } from '../context.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { changedFields, historyActorOf, recordHistory } from '../history/service.js';
import { requireRole } from '../roles.js';
import { assertVersion, takeVersion } from '../versions.js';
import { parseInput } from '../validate.js';
import { BulkDeleteSchema } from '@shared/schemas/bulk.js';
import { ALL_BUCKET, clubTypeBucket, definitionOf, FEATURED_BUCKET, orderOf, type RecordDefinition } from './definitions.js';
import {
  countOf,
  decodeRecord,
  decodeRecords,
  eventDistances,
  findRecordRow,
  findRecordRows,
  matchingIds,
  pageOfMatches,
  type BucketFilter,
  pageOfRows,
  runClubSchedules,
  type PageRequest,
  type SortPlan,
} from './queries.js';
import { pageByCursor } from './cursor.js';
import { deleteRecordRow, insertRecordRow, updateRecordRows } from './writes.js';
import { RECORD_TYPE_INFO, type RecordType } from '@shared/record-types.js';

type Item<K extends RecordType> = RecordItem<K>;
type Detail<K extends RecordType> = RecordDetail<K>;
type RawRow = Record<string, unknown>;

const MAX_ID = 4_294_967_295;

/**
 * Parses an id from a path. Text that is not a whole number is a 400; 0 or a number no row can have is simply not
 * found (the spec's screens never fetch id 0).
 */
function parseRecordId(kind: RecordType, text: string | undefined): number {
  if (text === undefined || !/^\d{1,12}$/.test(text)) throw badRequest('The id must be a positive whole number');
  const id = Number(text);
  if (id < 1 || id > MAX_ID) throw notFound(definitionOf(kind).notFound);
  return id;
}

const definition = (kind: RecordType) => definitionOf(kind) as RecordDefinition;

interface ListFilter {
  /** On the record rows (plain lists). */
  where?: (builder: Knex.QueryBuilder) => void;
  /** Names the filter, values included, so a statement built with `where` can be remembered (PageRequest.whereKey). */
  key: string;
  /** The same filter on the search documents (searches). */
  bucket?: BucketFilter;
  /** The maintained buckets the total is made of, and how. */
  buckets: string[];
  total: (counts: Map<string, number>) => number;
}

/** A list's filter, on record rows and on search documents alike (the list, its export and bulk selections). */
export function listFilterOf(kind: RecordType, query: ListQuery<RecordType>): ListFilter {
  if (kind === 'event') {
    const filter = (query as ListQuery<'event'>).filter;
    if (filter === 'featured') {
      return {
        key: 'featured',
        where: (b) => void b.where('r.featuredRace', 1),
        bucket: { bucket: FEATURED_BUCKET, present: true },
        buckets: [FEATURED_BUCKET],
        total: (c) => countOf(c, FEATURED_BUCKET),
      };
    }
    if (filter === 'regular') {
      return {
        key: 'regular',
        where: (b) => void b.where('r.featuredRace', 0),
        bucket: { bucket: FEATURED_BUCKET, present: false },
        buckets: [ALL_BUCKET, FEATURED_BUCKET],
        total: (c) => countOf(c) - countOf(c, FEATURED_BUCKET),
      };
    }
  }
  if (kind === 'runclub') {
    const type = (query as ListQuery<'runclub'>).type;
    if (type !== 'all') {
      return {
        key: `clubType:${type}`,
        // clubType is a JSON list of enum words; the quoted word matches exactly one element.
        where: (b) => void b.where('r.clubType', 'like', `%${JSON.stringify(type)}%`),
        bucket: { bucket: clubTypeBucket(type), present: true },
        buckets: [clubTypeBucket(type)],
        total: (c) => countOf(c, clubTypeBucket(type)),
      };
    }
  }
  return { key: '', buckets: [ALL_BUCKET], total: (c) => countOf(c, ALL_BUCKET) };
}

/**
 * How a list query orders its rows. "Upcoming first" (events) reads three index ranges one after another: events
 * from today (UTC) on, soonest first; then earlier ones, latest first; then undated ones, newest first.
 */
export function sortPlanOf(ctx: AppContext, kind: RecordType, query: ListQuery<RecordType>): SortPlan {
  if (kind === 'event' && query.sort === 'upcoming') {
    const today = ctx.clock.now().toISOString().slice(0, 10);
    return [
      // The dated segments hold no NULL: a seek in them reads no NULL range.
      {
        where: (b) => void b.where('r.eventStartDate', '>=', today),
        order: orderOf(definition(kind), 'eventStartDate', 'asc'),
        notNull: ['eventStartDate'],
      },
      {
        where: (b) => void b.where('r.eventStartDate', '<', today),
        order: orderOf(definition(kind), 'eventStartDate', 'desc'),
        notNull: ['eventStartDate'],
      },
      { where: (b) => void b.whereNull('r.eventStartDate'), order: orderOf(definition(kind), 'eventStartDate', 'desc'), fixed: 1 },
    ];
  }
  return [{ order: orderOf(definition(kind), query.sort, query.dir), notNull: definition(kind).notNullSortColumns }];
}

/**
 * One page of a list; the query arrives parsed (readListQuery in src/shared/list-query.ts), once, by the caller.
 * `after` reads the page following a cursor and `before` the page preceding one (keyset pagination, the same cost
 * at any depth); otherwise `offset` rows are skipped. `next` and `prev` are the cursors of the pages around it
 * (null at either end, and `prev` on the first page).
 */
export async function listRecords<K extends RecordType>(ctx: AppContext, kind: K, query: ListQuery<K>): Promise<ListPage<Item<K>>> {
  const def = definition(kind);
  const filter = listFilterOf(kind, query);
  const { page, next, prev } = await pageByCursor(sortPlanOf(ctx, kind, query), { sort: query.sort, dir: query.dir }, query, (request) =>
    readList(ctx, def, filter, query.q, { ...request, where: filter.where, whereKey: filter.key }),
  );
  return { items: decodeRecords<Item<K>>(def, page.rows, page.helperColumns), total: page.total, next, prev };
}

interface ListRead {
  rows: RawRow[];
  segments: number[];
  total: number;
  /** Columns of the rows that are not the record's (the totals read with a page). */
  helperColumns: string[];
}

/** The rows of a page request on a list, plain or searched, with its total. */
async function readList(ctx: AppContext, def: RecordDefinition, filter: ListFilter, q: string, request: PageRequest): Promise<ListRead> {
  if (q === '') {
    const { rows, segments, counts, helperColumns } = await pageOfRows(ctx.db, def, request, filter.buckets);
    return { rows, segments, total: filter.total(counts), helperColumns };
  }
  const matches = await matchingIds(ctx.db, def, q, filter.bucket);
  if (!matches) return { rows: [], segments: [], total: 0, helperColumns: [] };
  const { rows, segments, total } = await pageOfMatches(ctx.db, def, matches, request);
  return { rows, segments, total, helperColumns: [] };
}

type Db = Knex | Knex.Transaction;

/**
 * The one-record view of each type, typed per type so the compiler checks that events carry their distances and
 * run clubs their schedules. The row's columns become wire values through the table's column kinds.
 */
const presenters: { [K in RecordType]: (db: Db, row: RawRow) => Promise<Detail<K>> } = {
  event: async (db, row) => ({
    ...decodeRecord<RecordItem<'event'>>(definition('event'), row),
    distances: await eventDistances(db, Number(row.id)),
  }),
  runclub: async (db, row) => ({
    ...decodeRecord<RecordItem<'runclub'>>(definition('runclub'), row),
    schedules: await runClubSchedules(db, Number(row.id)),
  }),
  professional: async (_db, row) => decodeRecord(definition('professional'), row),
  brand: async (_db, row) => decodeRecord(definition('brand'), row),
  media: async (_db, row) => decodeRecord(definition('media'), row),
  influencer: async (_db, row) => decodeRecord(definition('influencer'), row),
};

function present<K extends RecordType>(db: Db, kind: K, row: RawRow): Promise<Detail<K>> {
  return presenters[kind](db, row);
}

export async function getRecord<K extends RecordType>(ctx: AppContext, kind: K, idText: string | undefined): Promise<Detail<K>> {
  const id = parseRecordId(kind, idText);
  const row = await findRecordRow(ctx.db, definition(kind), id);
  if (!row) throw notFound(definition(kind).notFound);
  return present(ctx.db, kind, row);
}

export async function createRecord<K extends RecordType>(ctx: AppContext, actor: Actor, kind: K, input: unknown): Promise<Detail<K>> {
  requireRole(actor, 'staff');
  const def = definition(kind);
  const values = parseInput(def.schema, input) as RawRow;
  const now = encodeTimestamp(ctx.clock.now());
  return withTransaction(ctx, async (trx) => {
    const id = await insertRecordRow(trx, kind, {
      ...encodeRow(def.columns, values),
      createdAt: now,
      updatedAt: now,
      createdBy: actor.userId,
    });
    const created = await present(trx, kind, (await findRecordRow(trx, def, id))!);
    await recordHistory(trx, ctx, await historyActorOf(trx, actor), [
      { entityType: kind, entityId: id, action: 'create', changes: created },
    ]);
    return created;
  });
}

/** PUT: the body is the whole form; every form field is replaced (docs/decisions/0010-record-field-mapping.md). */
export async function updateRecord<K extends RecordType>(
  ctx: AppContext,
  actor: Actor,
  kind: K,
  idText: string | undefined,
  input: unknown,
): Promise<Detail<K>> {
  requireRole(actor, 'staff');
  const def = definition(kind);
  const id = parseRecordId(kind, idText);
  const { version, body } = takeVersion(input);
  const values = parseInput(def.schema, body) as RawRow;
  return withTransaction(ctx, async (trx) => {
    const stored = await findRecordRow(trx, def, id, { forUpdate: true });
    if (!stored) throw notFound(def.notFound);
    const before = await present(trx, kind, stored);
    await assertVersion(trx, { entityType: kind, entityId: id, noun: RECORD_TYPE_INFO[kind].noun }, before.updatedAt, version);
    await updateRecordRows(trx, kind, [id], {
      ...encodeRow(def.columns, values),
      updatedAt: encodeTimestamp(ctx.clock.now()),
    });
    const after = await present(trx, kind, (await findRecordRow(trx, def, id))!);
    const changes = changedFields(before, after);
    if (Object.keys(changes).length)
      await recordHistory(trx, ctx, await historyActorOf(trx, actor), [
        { entityType: kind, entityId: id, action: 'update', changes, record: after },
      ]);
    return after;
  });
}

const PUBLISHED_PROFESSIONAL = 'This professional is published on the content website (it has a wordpress id) and cannot be deleted here';
const isPublishedProfessional = (kind: RecordType, row: RawRow) =>
  kind === 'professional' && row.wordpressProfessionalId !== null && row.wordpressProfessionalId !== undefined;

/**
 * Deletes one record and everything it owns (contacts, payments, file rows; event distances and club schedules by
 * cascade) inside the caller's transaction, keeping it all in Recently deleted for 30 days (the files' bytes stay
 * until `pacer trash purge` removes the entry) and in the history. A published professional (one with a wordpress
 * id) belongs to the content website and is refused. The single delete and the bulk delete both go through here,
 * so whatever a delete must also do is done once for both.
 */
async function deleteRecordIn(ctx: AppContext, actor: Actor, trx: Knex.Transaction, kind: RecordType, id: number): Promise<void> {
  const def = definition(kind);
  const row = await findRecordRow(trx, def, id, { forUpdate: true });
  if (!row) throw notFound(def.notFound);
  if (isPublishedProfessional(kind, row)) throw conflict(PUBLISHED_PROFESSIONAL);
  const record = await present(trx, kind, row);
  const children = await childRowsOf(trx, kind, id);
  const { owned } = await deleteOwnedRows(trx, kind, id);
  await deleteRecordRow(trx, kind, id);
  const who = await historyActorOf(trx, actor);
  await recordHistory(trx, ctx, who, [{ entityType: kind, entityId: id, action: 'delete', changes: { record, ...owned } }]);
  await putInTrash(trx, ctx, who, kind, { record: row, children, owned });
}

/** Deletes a record and everything it owns in one transaction. */
export async function deleteRecord(ctx: AppContext, actor: Actor, kind: RecordType, idText: string | undefined): Promise<void> {
  requireRole(actor, 'staff');
  const id = parseRecordId(kind, idText);
  await withTransaction(ctx, (trx) => deleteRecordIn(ctx, actor, trx, kind, id));
}

/**
 * POST /api/{type}/bulk-delete {ids}: every record or none, in one transaction, each through the single delete.
 * Ids that do not exist, and published professionals, are named in the refusal.
 */
export async function bulkDeleteRecords(ctx: AppContext, actor: Actor, kind: RecordType, body: unknown): Promise<{ deleted: number }> {
  requireRole(actor, 'staff');
  const def = definition(kind);
  const { ids } = parseInput(BulkDeleteSchema, body);
  await withTransaction(ctx, async (trx) => {
    const rows = await findRecordRows(trx, def, ids);
    const found = new Set(rows.map((row) => Number(row.id)));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) throw notFound(`${def.notFound}: ${missing.join(', ')}`);
    const published = rows.filter((row) => isPublishedProfessional(kind, row));
    if (published.length > 0) {
      const names = published.map((row) => String(row.businessName)).join(', ');
      throw conflict(`Published on the content website (they have a wordpress id), so nothing was deleted: ${names}`);
    }
    for (const id of ids) await deleteRecordIn(ctx, actor, trx, kind, id);
  });
  return { deleted: ids.length };
}

/** The public page of a synced event: the content site's address with the wordpress post id. */
export async function eventWordpressUrl(ctx: AppContext, idText: string | undefined): Promise<WordpressUrl> {
  const id = parseRecordId('event', idText);
  const row = await findRecordRow(ctx.db, definition('event'), id);
  if (!row) throw notFound(definition('event').notFound);
  return wordpressUrlOf(ctx, row.wordpressEventId as number | null | undefined);
}

/**
 * The public page of an event already read (its detail page has the row in hand, so it needs no second read):
 * a 409 when it is not synced or no public site is configured.
 */
export function wordpressUrlOf(ctx: AppContext, wordpressEventId: number | null | undefined): WordpressUrl {
  if (wordpressEventId === null || wordpressEventId === undefined) {
    throw conflict('This event is not synced with the content website (it has no wordpress id)');
  }
  const site = ctx.config.wordpress.publicSiteUrl;
  if (!site) throw conflict('The public site address is not configured (set PUBLIC_SITE_URL)');
  const url = new URL(site);
  url.pathname = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  url.search = new URLSearchParams({ p: String(wordpressEventId) }).toString();
  return { wordpressUrl: url.toString() };
}
