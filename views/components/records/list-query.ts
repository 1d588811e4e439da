import { withQuery } from '../../data/source.js';

/**
 * The state of a list screen, kept in the URL query (/events?q=marathon&filter=featured&page=2) so a reload, a
 * shared link and the back button show the same list, and the server renders what the browser would.
 */
export interface ListQuery {
  q: string;
  /** The value of the list's filter parameter ('' when the list has none or it is "all"). */
  filter: string;
  /** 1-based page number. */
  page: number;
}

export interface ListResponse<T> {
  items: T[];
  total: number;
}

/** Reads the list state from a page URL; anything malformed falls back to the first, unfiltered page. */
export function readListQuery(search: URLSearchParams, filterParam?: string, allowedFilters?: readonly string[]): ListQuery {
  const q = (search.get('q') ?? '').trim();
  const rawFilter = filterParam ? (search.get(filterParam) ?? '') : '';
  const filter = rawFilter === 'all' || (allowedFilters && !allowedFilters.includes(rawFilter)) ? '' : rawFilter;
  const pageText = search.get('page') ?? '';
  const page = /^\d{1,6}$/.test(pageText) && Number(pageText) >= 1 ? Number(pageText) : 1;
  return { q, filter, page };
}

/** The API read for a list state: the same filter parameter name as the page URL, offsets from the page. */
export function listApiPath(apiPath: string, query: ListQuery, pageSize: number, filterParam?: string): string {
  return withQuery(apiPath, {
    q: query.q,
    ...(filterParam ? { [filterParam]: query.filter } : {}),
    limit: pageSize,
    offset: (query.page - 1) * pageSize,
  });
}

/** A page URL for a list state; page 1 and empty values are left out so URLs stay short. */
export function listPageHref(listPath: string, query: ListQuery, filterParam?: string): string {
  return withQuery(listPath, {
    q: query.q,
    ...(filterParam ? { [filterParam]: query.filter } : {}),
    page: query.page > 1 ? query.page : undefined,
  });
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
