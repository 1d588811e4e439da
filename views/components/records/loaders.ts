import { data, type LoaderFunctionArgs } from 'react-router';
import { messageOf, statusOf } from '@shared/api-error.js';
import type { ListView } from '@shared/list-query.js';
import type { RecordDetail, RecordItem } from '@shared/schemas/records.js';
import type { Attachments } from '@shared/schemas/attachments.js';
import { dataSource, gated, notFoundWhen, type DataSource } from '@views/data/source.js';
import { type RecordType } from '@shared/record-types.js';
import { listNameOf, viewPreferenceOf, type ListLayout, type ListName, type SortDirection } from '@shared/list-options.js';
import type { DetailGroupFacts, FieldFacts, TableColumnFacts } from '@shared/records/read.js';

/** Route ids are whole numbers; anything else (and 0) means "no such record", and no fetch is made (spec point 2). */
export function parseRecordId(raw: string | undefined): number {
  if (!raw || !/^\d{1,10}$/.test(raw)) return 0;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : 0;
}

/** A read that answers null for an unknown id, so pages can show their own not-found text. */
export async function getOrNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

/** How the user last chose to see a list: cards or table, and the table's columns. */
export interface ListDisplay {
  layout: ListLayout;
  columns: string[];
}

export interface ListData<T> {
  items: T[];
  total: number;
  /** Cursors of the next and previous pages, for the Next and Previous links (null at either end). */
  next: string | null;
  prev: string | null;
  query: ListView;
  /** Why this search cannot be run (e.g. text over the length limit): shown in place of the results. */
  problem?: string;
  display: ListDisplay;
  /** Every column the table view can show, from the type's definition. */
  tableColumns: TableColumnFacts[];
  /** The cards' lines that are plain fields, from the type's definition. */
  cardFields: FieldFacts[];
  /** The list's sort keys in the menu's order, each with the direction it starts in (`SORTS`, from the definition). */
  sorts: Readonly<Record<string, SortDirection>>;
}

/** A search that cannot be run: status 400, and the page keeps its search box so the user can fix it. */
function refusedSearch<T>(query: ListView, problem: string, display: ListDisplay, facts: ListFacts): ListData<T> {
  return data(
    { items: [], total: 0, next: null, prev: null, query, problem, display, ...facts },
    { status: 400 },
  ) as unknown as ListData<T>;
}

/**
 * What a page draws from a type's definition, read here rather than in the page: the loader runs on the server for a
 * first load, so the browser's first load carries these facts as data and not the definitions.
 */
const definitions = () => import('@shared/records/index.js');

type ListFacts = Pick<ListData<unknown>, 'tableColumns' | 'cardFields' | 'sorts'>;

async function listFactsOf(kind: RecordType): Promise<ListFacts> {
  const { recordDefinition, tableColumnFacts, cardFieldFacts, SORTS } = await definitions();
  const definition = recordDefinition(kind);
  return { tableColumns: tableColumnFacts(definition), cardFields: cardFieldFacts(definition), sorts: SORTS[kind] };
}

async function detailGroupsOf(kind: RecordType): Promise<DetailGroupFacts[]> {
  const { recordDefinition, detailGroupFacts } = await definitions();
  return detailGroupFacts(recordDefinition(kind));
}

/**
 * The remembered view of a list on this device class (a phone keeps its own), read with the page's data so the
 * server's first paint already shows it.
 */
export async function listDisplayOf(ds: DataSource, list: ListName): Promise<ListDisplay> {
  const preferences = await ds.preferences();
  return { layout: preferences[viewPreferenceOf(list, ds.deviceClass())], columns: preferences[`${list}.columns`] };
}

/**
 * A list page: its URL's query, read once with the API's rules, is the query the list is read with. `display` is the
 * remembered view when the caller has read it already (the events page, which may show its calendar instead).
 */
export async function loadList<K extends RecordType>(
  kind: K,
  { request, context }: LoaderFunctionArgs,
  display?: Promise<ListDisplay>,
): Promise<ListData<RecordItem<K>>> {
  const ds = dataSource(context);
  // The list URL's rules (and zod with them) load with the first list read, not with every page (in the browser a
  // list page's first load never runs its loader: the server's data hydrates it).
  const { readListQuery } = await import('@shared/list-query.js');
  const read = readListQuery(kind, new URL(request.url).searchParams, 'page');
  const pendingDisplay = display ?? listDisplayOf(ds, listNameOf(kind));
  const facts = await listFactsOf(kind);
  if (!read.ok) return refusedSearch(read.view, read.message, await pendingDisplay, facts);
  try {
    const [list, shown] = await Promise.all([ds.listRecords(kind, read.query), pendingDisplay]);
    // A Previous link whose cursor had less than a page before it was answered with the first page.
    const query = read.query.before !== undefined && list.prev === null ? { ...read.view, page: 1 } : read.view;
    return { items: list.items, total: list.total, next: list.next, prev: list.prev, query, display: shown, ...facts };
  } catch (error) {
    // Rules only the server knows still show on the page, not as the error page.
    if (statusOf(error) !== 400) throw error;
    return refusedSearch(read.view, messageOf(error, 'This search could not be run'), await pendingDisplay, facts);
  }
}

export function listLoader<K extends RecordType>(kind: K) {
  return gated((args: LoaderFunctionArgs) => loadList(kind, args));
}

export interface RecordData<T> {
  id: number;
  record: T | null;
}

/** Loads one record for an edit page; null when it does not exist. */
export function recordLoader<K extends RecordType>(kind: K) {
  return gated(async ({ params, context }: LoaderFunctionArgs): Promise<RecordData<RecordDetail<K>>> => {
    const id = parseRecordId(params.id);
    const record = id ? await getOrNull(dataSource(context).getRecord(kind, id)) : null;
    return notFoundWhen(record === null, { id, record });
  });
}

export interface DetailData<T> extends RecordData<T> {
  attachments: Attachments;
  /** The definition's field groups, for the pages that draw them (`DefinedInfoCards`). */
  detailGroups: DetailGroupFacts[];
}

export const NO_ATTACHMENTS: Attachments = { contacts: [], payments: [], paymentsTotal: '0.00', files: [] };

/** Loads a record and what hangs off it (contacts, payments, files) for its detail page. */
export async function loadDetail<K extends RecordType>(
  ds: DataSource,
  kind: K,
  rawId: string | undefined,
): Promise<DetailData<RecordDetail<K>>> {
  const id = parseRecordId(rawId);
  const detailGroups = await detailGroupsOf(kind);
  if (!id) return { id, record: null, attachments: NO_ATTACHMENTS, detailGroups };
  const page = await getOrNull(ds.recordPage(kind, id));
  return page ? { id, ...page, detailGroups } : { id, record: null, attachments: NO_ATTACHMENTS, detailGroups };
}

export function detailLoader<K extends RecordType>(kind: K) {
  return gated(async ({ params, context }: LoaderFunctionArgs) => {
    const detail = await loadDetail(dataSource(context), kind, params.id);
    return notFoundWhen(detail.record === null, detail);
  });
}
