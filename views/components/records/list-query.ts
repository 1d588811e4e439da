import type { ListView } from '@shared/list-query.js';
import { withQuery } from '@views/data/source.js';

/** A page URL for a list state; page 1 and empty values are left out so URLs stay short. */
export function listPageHref(listPath: string, query: ListView, filterParam?: string): string {
  return withQuery(listPath, {
    q: query.q,
    ...(filterParam ? { [filterParam]: query.filter } : {}),
    page: query.page > 1 ? query.page : undefined,
  });
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
