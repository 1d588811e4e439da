import type { ListView } from '@shared/list-query.js';
import { DEFAULT_SORT } from '@shared/list-options.js';
import { withQuery } from '@views/data/source.js';

/** A page URL for a list state; page 1, the default sort and empty values are left out so URLs stay short. */
export function listPageHref(listPath: string, query: ListView, filterParam?: string): string {
  return withQuery(listPath, {
    q: query.q,
    ...(filterParam ? { [filterParam]: query.filter } : {}),
    sort: query.sort === DEFAULT_SORT ? undefined : query.sort,
    // The sort's own direction is named too: it is short, and the link reads the same whatever the default.
    dir: query.sort === DEFAULT_SORT && query.dir === 'desc' ? undefined : query.dir,
    page: query.page > 1 ? query.page : undefined,
  });
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
