import { RECORD_TYPE_INFO, RECORD_TYPES, type RecordType } from './record-types.js';
import type { DeviceClass } from './device.js';

/**
 * The record lists' paging, sorts and filters: plain values, free of zod, so the browser's list screens carry them
 * without the schemas (schemas/records/lists.ts builds the list query's schema from them and re-exports them).
 */

/** Items per list page when the client names no limit. */
export const PAGE_SIZE = 24;

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

/**
 * What each list can be sorted by, with the direction used when the URL names none; the first is the default.
 * Written here, not read from the record definitions, because every page's first load parses list URLs and the
 * definitions would weigh on all of them: test/unit/record-definitions.test.ts holds each equal to its definition's
 * table sorts (`sortsOf`), so a sortable column is declared in the definition and named here.
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
export const DEFAULT_SORT = 'newest';
export const sortKeysOf = (kind: RecordType): string[] => Object.keys(SORTS[kind]);
/** The direction a sort takes when the URL names none. */
export const defaultDirectionOf = (kind: RecordType, sort: string): SortDirection =>
  (SORTS[kind] as Record<string, SortDirection>)[sort] ?? 'asc';

/** A named order's value in the sort menu: the sort key and its direction in one (`eventName:desc`). */
export const sortOrderValue = (sort: string, dir: SortDirection): string => `${sort}:${dir}`;
/** A page URL's `sort`, split when it names an order (`eventName:desc`); a bare key has no direction of its own. */
export function splitSortOrder(value: string | null): [string | null, string | null] {
  if (value === null) return [null, null];
  const at = value.lastIndexOf(':');
  return at < 0 ? [value, null] : [value.slice(0, at), value.slice(at + 1)];
}

export const EVENT_FILTERS = ['all', 'featured', 'regular'] as const;
export type EventFilter = (typeof EVENT_FILTERS)[number];
/** The run club list's `type` filter (clubType contains it); the list omits social. */
export const RUN_CLUB_TYPE_FILTERS = ['all', 'trail', 'road', 'track', 'mixed'] as const;
export type RunClubTypeFilter = (typeof RUN_CLUB_TYPE_FILTERS)[number];

/** The lists that have views and columns: the six record lists (by URL segment) and the contacts directory. */
export const LIST_NAMES = [...RECORD_TYPES.map((type) => RECORD_TYPE_INFO[type].segment), 'contacts'] as const;
export type ListName = (typeof LIST_NAMES)[number];
export const listNameOf = (type: RecordType): ListName => RECORD_TYPE_INFO[type].segment;

/** Every way a list can be shown. */
const LIST_LAYOUTS = ['cards', 'table', 'calendar'] as const;
export type ListLayout = (typeof LIST_LAYOUTS)[number];

/** The ways each list can be shown, in the switch's order; the first is the default. Only events have a calendar. */
type Layouts = readonly [ListLayout, ...ListLayout[]];
/** The views every list has. */
export const COMMON_LAYOUTS: Layouts = ['cards', 'table'];
export const LAYOUTS = {
  ...(Object.fromEntries(LIST_NAMES.map((list) => [list, COMMON_LAYOUTS])) as Record<ListName, Layouts>),
  events: LIST_LAYOUTS,
} satisfies Record<ListName, Layouts>;
export const layoutsOf = (list: ListName): readonly ListLayout[] => LAYOUTS[list];

/**
 * A list's layout is remembered per device class: `view` on a desktop, `phoneView` on a phone (which shows the
 * default, cards, until a layout is chosen there).
 */
const VIEW_SETTINGS = { desktop: 'view', phone: 'phoneView' } as const satisfies Record<DeviceClass, string>;
export type ViewSetting = (typeof VIEW_SETTINGS)[DeviceClass];
/** The preference that remembers a list's layout on a device class. */
export const viewPreferenceOf = (list: ListName, device: DeviceClass): `${ListName}.${ViewSetting}` => `${list}.${VIEW_SETTINGS[device]}`;

/** Sorts of the directory and their own directions; the first is the default. `name` is last name, then first. */
export const CONTACT_SORTS = { newest: 'desc', name: 'asc', email: 'asc', jobTitle: 'asc', updatedAt: 'desc' } as const satisfies Record<
  string,
  SortDirection
>;
export type ContactSort = keyof typeof CONTACT_SORTS;

/** The list filter's parameter, named the same in page URLs and API URLs; the other lists have none. */
const LIST_FILTERS = {
  event: { param: 'filter', values: EVENT_FILTERS },
  runclub: { param: 'type', values: RUN_CLUB_TYPE_FILTERS },
} as const satisfies Partial<Record<RecordType, { param: string; values: readonly string[] }>>;

export const filterOf = (kind: RecordType): { param: string; values: readonly string[] } | undefined =>
  kind === 'event' || kind === 'runclub' ? LIST_FILTERS[kind] : undefined;

/** The name of a list's filter parameter ('filter' for events, 'type' for run clubs), if it has one. */
export const filterParamOf = (kind: RecordType): string | undefined => filterOf(kind)?.param;
