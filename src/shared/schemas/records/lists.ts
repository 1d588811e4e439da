import * as z from 'zod';
import type { RecordType } from '@shared/record-types.js';
import { text } from '../text.js';

/** The list endpoints' query parameters: paging, search text, sort order and each type's filter. */

/** Items per list page when the client names no limit, and the most one request may ask for. */
export const PAGE_SIZE = 24;
const MAX_LIMIT = 100;
/** Longest search text accepted; longer text is a 400, not a silent cut. */
const MAX_QUERY_LENGTH = 200;

/** Sort orders per type; the first is the default. `newest` = most recently created first. */
export const SORTS = {
  event: ['newest', 'name', 'date', 'updated'],
  professional: ['newest', 'name', 'updated'],
  runclub: ['newest', 'name', 'updated'],
  brand: ['newest', 'name', 'updated'],
  media: ['newest', 'name', 'updated'],
  influencer: ['newest', 'name', 'updated'],
} as const satisfies Record<RecordType, readonly [string, ...string[]]>;
export type SortOf<K extends RecordType> = (typeof SORTS)[K][number];

export const EVENT_FILTERS = ['all', 'featured', 'regular'] as const;
export type EventFilter = (typeof EVENT_FILTERS)[number];
/** The run club list's `type` filter (clubType contains it); the list omits social. */
export const RUN_CLUB_TYPE_FILTERS = ['all', 'trail', 'road', 'track', 'mixed'] as const;
export type RunClubTypeFilter = (typeof RUN_CLUB_TYPE_FILTERS)[number];

const queryText = text('Search text must be text')
  .max(MAX_QUERY_LENGTH, `Search text must be at most ${MAX_QUERY_LENGTH} characters`)
  // Line breaks separate fields in the search index, so a query never spans two fields.
  .transform((text) => text.replace(/[\r\n]+/g, ' ').trim())
  .optional()
  .transform((text) => text ?? '');
const queryInt = (label: string, min: number, max: number, fallback: number) =>
  text()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text === '') return fallback;
      if (!/^\d{1,9}$/.test(text) || Number(text) < min || Number(text) > max) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return Number(text);
    });
const querySort = <K extends RecordType>(kind: K) =>
  z
    .preprocess(
      (v) => (v === '' ? undefined : v),
      z.enum(SORTS[kind], { error: `sort must be one of: ${SORTS[kind].join(', ')}` }).optional(),
    )
    .transform((v): SortOf<K> => v ?? SORTS[kind][0]);

const baseListQuery = <K extends RecordType>(kind: K) => ({
  q: queryText,
  sort: querySort(kind),
  limit: queryInt('limit', 1, MAX_LIMIT, PAGE_SIZE),
  offset: queryInt('offset', 0, 100_000_000, 0),
});

/** Query parameters of each list endpoint (all optional strings in the URL). Unknown parameters are ignored. */
export const ListQuerySchemas = {
  event: z.object({
    ...baseListQuery('event'),
    filter: z
      .preprocess(
        (v) => (v === '' ? undefined : v),
        z.enum(EVENT_FILTERS, { error: `filter must be one of: ${EVENT_FILTERS.join(', ')}` }).optional(),
      )
      .transform((v): EventFilter => v ?? 'all'),
  }),
  professional: z.object(baseListQuery('professional')),
  runclub: z.object({
    ...baseListQuery('runclub'),
    type: z
      .preprocess(
        (v) => (v === '' ? undefined : v),
        z.enum(RUN_CLUB_TYPE_FILTERS, { error: `type must be one of: ${RUN_CLUB_TYPE_FILTERS.join(', ')}` }).optional(),
      )
      .transform((v): RunClubTypeFilter => v ?? 'all'),
  }),
  brand: z.object(baseListQuery('brand')),
  media: z.object(baseListQuery('media')),
  influencer: z.object(baseListQuery('influencer')),
} as const;
export type ListQuery<K extends RecordType> = z.output<(typeof ListQuerySchemas)[K]>;
