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
 * The sort every list starts in. Each list's sorts are read from its record definition (`SORTS`, ./records/sorts.ts),
 * not named here: pages import this file in their first load, and a list page gets its sorts from its loader instead.
 */
export const DEFAULT_SORT = 'newest';

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
