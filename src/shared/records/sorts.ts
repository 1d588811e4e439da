import type { RecordType } from '../record-types.js';
import { BRAND } from './brand.js';
import { EVENT } from './event.js';
import { INFLUENCER } from './influencer.js';
import { MEDIA } from './media.js';
import { PROFESSIONAL } from './professional.js';
import { sortsOf } from './read.js';
import { RUN_CLUB } from './runclub.js';

/**
 * What each list can be sorted by, with the direction used when the URL names none; the first (`newest`, the order
 * records were added in) is the default. Read from each definition (`sortsOf`: its table's sortable columns, keyed by
 * the field's wire name, then `updatedAt`); every sort ends on the id in the same direction, so equal values keep one
 * order and a cursor can seek on (value, id).
 * `upcoming` is written here because it is a whole order and no field: events from today on, soonest first, then
 * past and undated ones, latest first (src/services/records/service.ts `sortPlanOf`).
 * The browser's first load never carries this (it would carry the six definitions): a list page gets its sorts from
 * its loader (ListData.sorts), and the list URL's rules that read them load with the first list read.
 */
export const SORTS = {
  event: sortsOf(EVENT, { upcoming: 'asc' }),
  professional: sortsOf(PROFESSIONAL),
  runclub: sortsOf(RUN_CLUB),
  brand: sortsOf(BRAND),
  media: sortsOf(MEDIA),
  influencer: sortsOf(INFLUENCER),
} satisfies Record<RecordType, unknown>;

export const sortKeysOf = (kind: RecordType): string[] => Object.keys(SORTS[kind]);
/** The direction a sort takes when the URL names none. */
export const defaultDirectionOf = (kind: RecordType, sort: string): 'asc' | 'desc' =>
  (SORTS[kind] as Record<string, 'asc' | 'desc'>)[sort] ?? 'asc';
