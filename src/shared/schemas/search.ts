import * as z from 'zod';
import type { RecordType } from '../record-types.js';
import { text } from './text.js';

/** GET /api/search?q=&limit=: the command palette's results, grouped by type. */
/** A group of the results: one of the six record types, or contacts. */
export type SearchType = RecordType | 'contact';

export const SearchQuerySchema = z.object({
  q: text('Search text must be text')
    .max(200, 'Search text must be at most 200 characters')
    .transform((value) => value.replace(/[\r\n]+/g, ' ').trim())
    .refine((value) => value.length > 0, 'Search text is required'),
  limit: text()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return 5;
      if (!/^\d{1,2}$/.test(value) || Number(value) < 1 || Number(value) > 20) {
        ctx.addIssue({ code: 'custom', message: 'limit must be a whole number from 1 to 20' });
        return z.NEVER;
      }
      return Number(value);
    }),
});

export interface SearchItem {
  id: number;
  title: string;
  subtitle: string;
  /** An event's start day ('YYYY-MM-DD'), shown before the subtitle in the reader's date format. */
  date?: string;
  url: string;
}

export interface SearchGroup {
  type: SearchType;
  total: number;
  items: SearchItem[];
}

export interface SearchResults {
  groups: SearchGroup[];
}
