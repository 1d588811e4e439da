import type { ColumnKinds } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { RecordInputSchemas } from '@shared/schemas/records.js';
import { RUN_CLUB_TYPE_FILTERS } from '@shared/list-options.js';
import { decodeList } from '@db/codecs.js';
import { RECORD_TYPE_INFO, type RecordType } from '@shared/record-types.js';
import { recordDefinition, searchOf, type RecordDef } from '@shared/records/index.js';

type Direction = 'asc' | 'desc';
export type SortSpec = ReadonlyArray<readonly [column: string, direction: Direction]>;
type RawRow = Record<string, unknown>;

/**
 * A table kept in the search index and the maintained counts (docs/decisions/0011-record-search-and-counts.md): the
 * six record types and the contacts.
 */
export interface IndexedDefinition {
  /** The key of this table in the derived tables (record_search_docs, record_search_grams, record_counts). */
  code: number;
  table: string;
  /** Columns the search text and count buckets are made of. */
  derivedColumns: readonly string[];
  /** The searched fields, in order (records: spec point 5 "Search"). */
  searchFields(row: RawRow): Array<string | number | null | undefined>;
  /** The filter buckets this row counts in (besides "all"), e.g. "featured" or "type:trail". */
  buckets(row: RawRow): string[];
}

/** Everything the generic records service needs to know about one record type. */
export interface RecordDefinition<K extends RecordType = RecordType> extends IndexedDefinition {
  kind: K;
  columns: ColumnKinds;
  schema: (typeof RecordInputSchemas)[K];
  notFound: string;
  /** Sort keys whose columns are not simply the column of that name (the id always ends the order). */
  sortColumns?: Record<string, readonly string[]>;
  /**
   * Sortable columns declared NOT NULL (migrations/20261121000000_initial_schema.ts): a cursor walk has no NULL range
   * of them to read.
   */
  notNullSortColumns: readonly string[];
}

const isTrue = (value: unknown) => value === true || value === 1 || value === '1';
const listOf = (value: unknown) => {
  try {
    return decodeList(value);
  } catch {
    return [];
  }
};

const RUN_CLUB_BUCKETS = RUN_CLUB_TYPE_FILTERS.filter((type) => type !== 'all');
export const FEATURED_BUCKET = 'featured';
export const ALL_BUCKET = 'all';
export const clubTypeBucket = (type: string) => `type:${type}`;

/** What a definition takes from the shared vocabulary and the schemas, so no type restates its table or texts. */
function vocabulary<K extends RecordType>(kind: K) {
  const { table, notFound } = RECORD_TYPE_INFO[kind];
  return { kind, table, columns: columnKinds[table], schema: RecordInputSchemas[kind], notFound };
}

/**
 * The searched columns and the search text of a type, from its definition (src/shared/records/), plus the columns
 * its count buckets read: a group of fields is one field of the text (a full name).
 */
function searchFrom(definition: RecordDef, bucketColumns: readonly string[] = []) {
  const { columns, fields } = searchOf(definition);
  return {
    derivedColumns: [...columns, ...bucketColumns],
    searchFields: (r: RawRow) =>
      fields.map((field) =>
        typeof field === 'string'
          ? (r[field] as string | number | null | undefined)
          : field
              .map((name) => (r[name] as string | null | undefined) ?? '')
              .join(' ')
              .trim(),
      ),
  };
}

/** @public Exported for test/unit/migrations-later-column.test.ts, which mocks this module to add a column. */
export const RECORD_DEFINITIONS: { [K in RecordType]: RecordDefinition<K> } = {
  event: {
    ...vocabulary('event'),
    code: 1,
    notNullSortColumns: ['eventName', 'featuredRace', 'totalAdvertisingSpend', 'updatedAt'],
    ...searchFrom(recordDefinition('event'), ['featuredRace']),
    buckets: (r) => (isTrue(r.featuredRace) ? [FEATURED_BUCKET] : []),
  },
  professional: {
    ...vocabulary('professional'),
    code: 2,
    notNullSortColumns: ['businessName', 'subscriptionStatus', 'totalPayments', 'updatedAt'],
    ...searchFrom(recordDefinition('professional')),
    buckets: () => [],
  },
  runclub: {
    ...vocabulary('runclub'),
    code: 3,
    notNullSortColumns: ['clubName', 'paymentStatus', 'totalPayments', 'updatedAt'],
    ...searchFrom(recordDefinition('runclub'), ['clubType']),
    buckets: (r) => {
      const types = new Set(listOf(r.clubType));
      return RUN_CLUB_BUCKETS.filter((type) => types.has(type)).map(clubTypeBucket);
    },
  },
  brand: {
    ...vocabulary('brand'),
    code: 4,
    notNullSortColumns: ['brandName', 'totalAdvertisingSpend', 'paymentStatus', 'updatedAt'],
    ...searchFrom(recordDefinition('brand')),
    buckets: () => [],
  },
  media: {
    ...vocabulary('media'),
    code: 5,
    notNullSortColumns: ['mediaName', 'updatedAt'],
    ...searchFrom(recordDefinition('media')),
    buckets: () => [],
  },
  influencer: {
    ...vocabulary('influencer'),
    code: 6,
    notNullSortColumns: ['lastName', 'firstName', 'influencerType', 'updatedAt'],
    // "Full name" is one field, so "Jane Do" matches Jane Doe.
    ...searchFrom(recordDefinition('influencer')),
    buckets: () => [],
    sortColumns: { name: ['lastName', 'firstName'] },
  },
};

export function definitionOf<K extends RecordType>(kind: K): RecordDefinition<K> {
  return RECORD_DEFINITIONS[kind];
}

/**
 * The ORDER BY of one sort: its columns, then the id, all in the one direction so one index on (columns…, id) walks
 * it forwards or backwards (migrations/20261124120100_list_sort_indexes.ts).
 */
export function orderOf(definition: RecordDefinition, sort: string, dir: Direction): SortSpec {
  const columns = sort === 'newest' ? [] : (definition.sortColumns?.[sort] ?? [sort]);
  return [...columns.map((column) => [column, dir] as const), ['id', dir] as const];
}

export const ALL_DEFINITIONS: RecordDefinition[] = Object.values(RECORD_DEFINITIONS) as RecordDefinition[];

/**
 * Contacts in the search index (the directory, the palette): the full name as one field (so "Ana Li" finds Ana
 * Lima, as the influencers' name does), email, phone, job title, then each Mailchimp tag as a field of its own.
 */
export const CONTACT_INDEX: IndexedDefinition = {
  code: 7,
  table: 'contacts',
  derivedColumns: ['firstName', 'lastName', 'email', 'phone', 'jobTitle', 'mailchimpTags'],
  searchFields: (r) => [
    `${(r.firstName as string) ?? ''} ${(r.lastName as string) ?? ''}`.trim(),
    r.email as string,
    r.phone as string,
    r.jobTitle as string,
    ...listOf(r.mailchimpTags),
  ],
  buckets: () => [],
};

/** What the search index and counts hold, by name: a record type or the contacts. */
export type IndexedKind = RecordType | 'contact';
