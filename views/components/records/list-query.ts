import type { ListView } from '@shared/list-query.js';
import { DEFAULT_SORT } from '@shared/list-options.js';
import { withQuery } from '@views/data/source.js';

/** Where a Next or Previous link seeks from: the cursor of the row the page follows or precedes. */
export type PageCursor = { after: string } | { before: string };

/**
 * A page URL for a list state; page 1, the default sort and empty values are left out so URLs stay short. A Next
 * or Previous link carries its `cursor` (the page number then only names the page); other links jump by number.
 */
export function listPageHref(listPath: string, query: ListView, filterParam?: string, cursor?: PageCursor): string {
  return withQuery(listPath, {
    q: query.q,
    ...(filterParam ? { [filterParam]: query.filter } : {}),
    sort: query.sort === DEFAULT_SORT ? undefined : query.sort,
    // The sort's own direction is named too: it is short, and the link reads the same whatever the default.
    dir: query.sort === DEFAULT_SORT && query.dir === 'desc' ? undefined : query.dir,
    ...cursor,
    page: query.page > 1 ? query.page : undefined,
  });
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
