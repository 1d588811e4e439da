import { globalSearch } from '@services/search/service.js';
import { defineRead, type ReadRoute } from '../reads.js';

/** GET /api/search?q=&limit=: results of all six record types and contacts, grouped, with counts. */
export const searchReads: ReadRoute[] = [defineRead('/api/search', ({ ctx, query }) => globalSearch(ctx, Object.fromEntries(query)))];
