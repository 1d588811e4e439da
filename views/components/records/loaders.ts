import { data, type LoaderFunctionArgs } from 'react-router';
import type { RecordType } from '../../../src/services/attachments/owner-types.js';
import { messageOf, statusOf } from '../../../src/shared/api-error.js';
import { loadAttachments, type Attachments } from '../attachments/index.js';
import { dataSource, gated, notFoundWhen, type DataSource } from '../../data/source.js';
import { listApiPath, readListQuery, type ListQuery, type ListResponse } from './list-query.js';

/** Route ids are whole numbers; anything else (and 0) means "no such record", and no fetch is made (spec point 2). */
export function parseRecordId(raw: string | undefined): number {
  if (!raw || !/^\d{1,10}$/.test(raw)) return 0;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : 0;
}

/** A read that answers null for an unknown id, so pages can show their own not-found text. */
export async function getOrNull<T>(ds: DataSource, path: string): Promise<T | null> {
  try {
    return await ds.get<T>(path);
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

export interface ListData<T> extends ListResponse<T> {
  query: ListQuery;
  /** Why the API refused this search (e.g. text over the length limit): shown in place of the results. */
  problem?: string;
}

export interface ListSource {
  apiPath: string;
  pageSize: number;
  /** The query parameter of the list's filter, shared by the page URL and the API ('filter', 'type'). */
  filterParam?: string;
  filterValues?: readonly string[];
}

export function listLoader<T>(source: ListSource) {
  return gated(async ({ request, context }: LoaderFunctionArgs): Promise<ListData<T>> => {
    const query = readListQuery(new URL(request.url).searchParams, source.filterParam, source.filterValues);
    try {
      const list = await dataSource(context).get<ListResponse<T>>(listApiPath(source.apiPath, query, source.pageSize, source.filterParam));
      return { items: list.items, total: list.total, query };
    } catch (error) {
      // The API's own rules decide what a valid search is; the page keeps its search box so the user can fix it.
      if (statusOf(error) !== 400) throw error;
      const refused: ListData<T> = { items: [], total: 0, query, problem: messageOf(error, 'This search could not be run') };
      return data(refused, { status: 400 }) as unknown as ListData<T>;
    }
  });
}

export interface RecordData<T> {
  id: number;
  record: T | null;
}

/** Loads one record for an edit page; null when it does not exist. */
export function recordLoader<T>(apiPath: string) {
  return gated(async ({ params, context }: LoaderFunctionArgs): Promise<RecordData<T>> => {
    const id = parseRecordId(params.id);
    const record = id ? await getOrNull<T>(dataSource(context), `${apiPath}/${id}`) : null;
    return notFoundWhen(record === null, { id, record });
  });
}

export interface DetailData<T> extends RecordData<T> {
  attachments: Attachments;
}

export const NO_ATTACHMENTS: Attachments = { contacts: [], payments: [], paymentsTotal: '0.00', files: [] };

/** Loads a record and what hangs off it (contacts, payments, files) for its detail page. */
export async function loadDetail<T>(ds: DataSource, apiPath: string, ownerType: RecordType, rawId: string | undefined): Promise<DetailData<T>> {
  const id = parseRecordId(rawId);
  if (!id) return { id, record: null, attachments: NO_ATTACHMENTS };
  // Both reads start together (one round trip in the browser); what hangs off a missing record is not wanted,
  // so its failure only matters when the record exists.
  const pendingAttachments = loadAttachments(ds, ownerType, id).then(
    (attachments) => ({ attachments }),
    (error: unknown) => ({ error }),
  );
  const record = await getOrNull<T>(ds, `${apiPath}/${id}`);
  const loaded = await pendingAttachments;
  if (!record) return { id, record: null, attachments: NO_ATTACHMENTS };
  if ('error' in loaded) throw loaded.error;
  return { id, record, attachments: loaded.attachments };
}

export function detailLoader<T>(apiPath: string, ownerType: RecordType) {
  return gated(async ({ params, context }: LoaderFunctionArgs) => {
    const detail = await loadDetail<T>(dataSource(context), apiPath, ownerType, params.id);
    return notFoundWhen(detail.record === null, detail);
  });
}
