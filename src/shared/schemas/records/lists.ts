import * as z from 'zod';
import type { RecordType } from '@shared/record-types.js';
import { text } from '../text.js';

/** The list endpoints' query parameters: paging, search text, sort order and each type's filter. */

/** Items per list page when the client names no limit, and the most one request may ask for. */
export const PAGE_SIZE = 24;
const MAX_LIMIT = 100;
/** Longest search text accepted; longer text is a 400, not a silent cut. */
const MAX_QUERY_LENGTH = 200;

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/**
 * What each list can be sorted by, with the direction used when the URL names none; the first is the default.
 * `newest` is the order records were added in; `upcoming` (events) lists events from today on, soonest first, then
 * past and undated ones, latest first. Every other key is a record field (the wire name), and every sort ends on
 * the id in the same direction, so equal values keep one order and a cursor can seek on (value, id).
 */
export const SORTS = {
  event: {
    newest: 'desc',
    upcoming: 'asc',
    eventName: 'asc',
    eventStartDate: 'asc',
    locationState: 'asc',
    featuredRace: 'desc',
    totalAdvertisingSpend: 'desc',
    wordpressLastSync: 'desc',
    updatedAt: 'desc',
  },
  professional: {
    newest: 'desc',
    businessName: 'asc',
    professionType: 'asc',
    locationState: 'asc',
    subscriptionStatus: 'asc',
    totalPayments: 'desc',
    lastNewsletterInclusion: 'desc',
    updatedAt: 'desc',
  },
  runclub: {
    newest: 'desc',
    clubName: 'asc',
    locationState: 'asc',
    membershipCount: 'desc',
    paymentStatus: 'asc',
    totalPayments: 'desc',
    lastNewsletterInclusion: 'desc',
    updatedAt: 'desc',
  },
  brand: {
    newest: 'desc',
    brandName: 'asc',
    industryCategory: 'asc',
    locationState: 'asc',
    totalAdvertisingSpend: 'desc',
    paymentStatus: 'asc',
    lastCampaignEndDate: 'desc',
    updatedAt: 'desc',
  },
  media: { newest: 'desc', mediaName: 'asc', industry: 'asc', updatedAt: 'desc' },
  // `name` is the last name, then the first name.
  influencer: { newest: 'desc', name: 'asc', influencerType: 'asc', instagramHandle: 'asc', email: 'asc', updatedAt: 'desc' },
} as const satisfies Record<RecordType, { newest: 'desc' } & Record<string, SortDirection>>;
type SortOf<K extends RecordType> = keyof (typeof SORTS)[K] & string;
export const DEFAULT_SORT = 'newest';
export const sortKeysOf = (kind: RecordType): string[] => Object.keys(SORTS[kind]);
/** The direction a sort takes when the URL names none. */
export const defaultDirectionOf = (kind: RecordType, sort: string): SortDirection =>
  (SORTS[kind] as Record<string, SortDirection>)[sort] ?? 'asc';

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
