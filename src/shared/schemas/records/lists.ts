import * as z from 'zod';
import type { RecordType } from '@shared/record-types.js';
import { text } from '../text.js';
import {
  DEFAULT_SORT,
  EVENT_FILTERS,
  PAGE_SIZE,
  RUN_CLUB_TYPE_FILTERS,
  SORT_DIRECTIONS,
  type EventFilter,
  type RunClubTypeFilter,
  type SortDirection,
} from '@shared/list-options.js';
import { SORTS, sortKeysOf } from '@shared/records/sorts.js';

/** The list endpoints' query parameters: paging, search text, sort order and each type's filter. */

/** The most items one request may ask for. */
const MAX_LIMIT = 100;
/** Longest search text accepted; longer text is a 400, not a silent cut. */
const MAX_QUERY_LENGTH = 200;
type SortOf<K extends RecordType> = keyof (typeof SORTS)[K] & string;

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
const optionalWord = <const T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.enum(values, { error: message }).optional());
const querySort = <K extends RecordType>(kind: K) => {
  const keys = sortKeysOf(kind) as [SortOf<K>, ...SortOf<K>[]];
  return optionalWord(keys, `sort must be one of: ${keys.join(', ')}`).transform((v): SortOf<K> => v ?? DEFAULT_SORT);
};

/**
 * A cursor from a list's answer (`next`, `prev`): opaque URL-safe text, checked in full by the list service (the
 * record lists and the contacts directory).
 */
const MAX_CURSOR_LENGTH = 4100;
export const queryCursor = (param: string) =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    text(`${param} must be a cursor from a list's answer`)
      .max(MAX_CURSOR_LENGTH, `${param} must be a cursor from a list's answer`)
      .regex(/^[A-Za-z0-9_.-]+$/, `${param} must be a cursor from a list's answer`)
      .optional(),
  );

const baseListQuery = <K extends RecordType>(kind: K) => ({
  q: queryText,
  sort: querySort(kind),
  dir: optionalWord(SORT_DIRECTIONS, `dir must be one of: ${SORT_DIRECTIONS.join(', ')}`),
  limit: queryInt('limit', 1, MAX_LIMIT, PAGE_SIZE),
  offset: queryInt('offset', 0, 100_000_000, 0),
  /** The page after (or before) the row a cursor names, in place of `offset`. */
  after: queryCursor('after'),
  before: queryCursor('before'),
});

/** Query parameters of each list endpoint (all optional strings in the URL). Unknown parameters are ignored. */
export const ListQuerySchemas = {
  event: z.object({
    ...baseListQuery('event'),
    filter: optionalWord(EVENT_FILTERS, `filter must be one of: ${EVENT_FILTERS.join(', ')}`).transform((v): EventFilter => v ?? 'all'),
  }),
  professional: z.object(baseListQuery('professional')),
  runclub: z.object({
    ...baseListQuery('runclub'),
    type: optionalWord(RUN_CLUB_TYPE_FILTERS, `type must be one of: ${RUN_CLUB_TYPE_FILTERS.join(', ')}`).transform(
      (v): RunClubTypeFilter => v ?? 'all',
    ),
  }),
  brand: z.object(baseListQuery('brand')),
  media: z.object(baseListQuery('media')),
  influencer: z.object(baseListQuery('influencer')),
} as const;
/** A parsed list query; `dir` is the URL's, or the sort's own direction when it names none (readListQuery sets it). */
export type ListQuery<K extends RecordType> = Omit<z.output<(typeof ListQuerySchemas)[K]>, 'dir'> & { dir: SortDirection };
