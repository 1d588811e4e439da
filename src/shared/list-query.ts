import { ListQuerySchemas, type ListQuery } from './schemas/records.js';
import { DEFAULT_SORT, filterOf, PAGE_SIZE, SORT_DIRECTIONS, splitSortOrder, type SortDirection } from './list-options.js';
import { defaultDirectionOf, sortKeysOf } from './records/sorts.js';
import { type RecordType } from './record-types.js';
import { pageCursorOf } from './page-cursor.js';

/**
 * A record list's query, read once from a URL (docs/decisions/0016-list-state-in-the-url.md). The page loader and
 * the /api list route both call readListQuery; the parsed ListQuery then travels to the service as it is.
 */

/** What a list screen shows of its query: the search text, the filter ('' for all), the sort and the 1-based page. */
export interface ListView {
  q: string;
  filter: string;
  sort: string;
  dir: SortDirection;
  page: number;
}

interface ListIssue {
  path: string;
  message: string;
}

export type ListQueryRead<K extends RecordType> =
  | { ok: true; query: ListQuery<K>; view: ListView }
  /** `message` is the first issue's, as every refused API input words it. */
  | { ok: false; message: string; issues: ListIssue[]; view: ListView };

/**
 * `api` URLs carry q, the filter, sort, limit and offset or a cursor (after or before), and any malformed value is
 * refused (a repeated parameter too, rather than silently picking one, and a cursor with an offset or with the
 * other cursor). `page` URLs (the screens) carry q, the filter, page and the cursor the Next and Previous links put
 * there: a malformed page, filter or cursor falls back to page 1 (or to the page number's offset), unfiltered, so an
 * old link still opens the list; the search text follows the API's rules, so a search the API would refuse is
 * refused on the page with the same message.
 */
export function readListQuery<K extends RecordType>(kind: K, search: URLSearchParams, from: 'api' | 'page'): ListQueryRead<K> {
  const filter = filterOf(kind);
  let input: Record<string, string | string[]>;
  let page = 1;
  if (from === 'api') {
    // fromEntries defines own properties, so a parameter named __proto__ stays a plain key.
    input = Object.fromEntries(
      [...new Set(search.keys())].map((key) => {
        const values = search.getAll(key);
        return [key, values.length === 1 ? values[0]! : values];
      }),
    );
  } else {
    const pageText = search.get('page') ?? '';
    page = /^\d{1,6}$/.test(pageText) && Number(pageText) >= 1 ? Number(pageText) : 1;
    input = { limit: String(PAGE_SIZE), offset: String((page - 1) * PAGE_SIZE) };
    // Next and Previous links carry a cursor beside the page number, which then only names the page.
    const cursor = pageCursorOf(search);
    if (cursor) Object.assign(input, cursor, { offset: '0' });
    const q = search.get('q');
    if (q !== null) input.q = q;
    const value = filter ? search.get(filter.param) : null;
    if (filter && value !== null && filter.values.includes(value)) input[filter.param] = value;
    // Like the filter, an unknown sort or direction in a page URL falls back to the default.
    // The sort menu's form (without JavaScript) sends one named order, `sort=key:dir`; links send sort and dir.
    const [sort, orderDir] = splitSortOrder(search.get('sort'));
    if (sort !== null && sortKeysOf(kind).includes(sort)) input.sort = sort;
    const dir = orderDir ?? search.get('dir');
    if (dir !== null && (SORT_DIRECTIONS as readonly string[]).includes(dir)) input.dir = dir;
  }

  const result = ListQuerySchemas[kind].safeParse(input);
  const cursorIssues = result.success ? cursorProblems(result.data) : [];
  if (!result.success || cursorIssues.length > 0) {
    const issues = result.success
      ? cursorIssues
      : result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
    const filterText = filter ? input[filter.param] : undefined;
    const view = {
      q: search.get('q') ?? '',
      filter: typeof filterText === 'string' && filterText !== 'all' ? filterText : '',
      sort: DEFAULT_SORT,
      dir: defaultDirectionOf(kind, DEFAULT_SORT),
      page,
    };
    return { ok: false, message: issues[0]?.message ?? 'Invalid input', issues, view };
  }
  // The schemas of the six kinds differ only in their filter; ListQuery<K> is the output of ListQuerySchemas[K], with
  // the direction defaulted here since it depends on the sort.
  const parsed = result.data as Omit<ListQuery<K>, 'dir'> & { dir?: ListQuery<K>['dir'] };
  const query = { ...parsed, dir: parsed.dir ?? defaultDirectionOf(kind, parsed.sort) } as ListQuery<K>;
  return { ok: true, query, view: listViewOf(kind, query, from === 'page' ? page : undefined) };
}

/** A cursor replaces the offset, and a page follows one row or precedes one, not both. */
export function cursorProblems(query: { offset: number; after?: string; before?: string }): ListIssue[] {
  if (query.after !== undefined && query.before !== undefined) {
    return [{ path: 'before', message: 'Give after or before, not both' }];
  }
  const cursor = query.after !== undefined ? 'after' : query.before !== undefined ? 'before' : undefined;
  if (cursor && query.offset > 0) return [{ path: 'offset', message: `offset cannot be combined with ${cursor}` }];
  return [];
}

/** The screen's view of a parsed query; `page` is the page URL's number when a cursor, not the offset, places it. */
function listViewOf<K extends RecordType>(kind: K, query: ListQuery<K>, page?: number): ListView {
  const filter = filterOf(kind);
  const value = filter ? (query as Record<string, unknown>)[filter.param] : undefined;
  return {
    q: query.q,
    filter: typeof value === 'string' && value !== 'all' ? value : '',
    sort: query.sort,
    dir: query.dir,
    page: query.after !== undefined || query.before !== undefined ? (page ?? 1) : Math.floor(query.offset / query.limit) + 1,
  };
}

/** The API's search parameters for a parsed query (what the browser fetches); defaults are left out. */
export function listApiSearch<K extends RecordType>(kind: K, query: ListQuery<K>): URLSearchParams {
  const search = new URLSearchParams();
  if (query.q) search.set('q', query.q);
  const filter = filterOf(kind);
  const value = filter ? (query as Record<string, unknown>)[filter.param] : undefined;
  if (filter && typeof value === 'string' && value !== 'all') search.set(filter.param, value);
  if (query.sort !== DEFAULT_SORT) search.set('sort', query.sort);
  if (query.dir !== defaultDirectionOf(kind, query.sort)) search.set('dir', query.dir);
  search.set('limit', String(query.limit));
  if (query.after !== undefined) search.set('after', query.after);
  else if (query.before !== undefined) search.set('before', query.before);
  else search.set('offset', String(query.offset));
  return search;
}
