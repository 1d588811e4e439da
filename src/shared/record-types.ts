/**
 * The one vocabulary of the six record types (events, professionals, run clubs, brands, media, influencers).
 * Browser-safe and free of imports, so every layer can use it.
 *
 * Each type is written down once, by its id and the spec's words for it (and whether the WordPress sync fills it);
 * every other spelling is derived from those words by one rule, so no second list of the six can drift:
 *   plural 'Run Clubs' → table 'run_clubs', URL segment 'runclubs' ('/runclubs', '/api/runclubs'), stats key 'runClubs'
 *   singular 'Run Club' → noun 'run club' (mid-sentence), not-found text 'Run Club not found'
 */

interface Definition {
  /** As a title reads it: 'Run Club', 'Media Outlet'. */
  singular: string;
  /** As the side navigation reads it: 'Run Clubs', 'Media'. */
  plural: string;
  /** Spec point 8 words this one differently from `${singular} not found`. */
  notFound?: string;
  /** Filled from WordPress posts by the sync (spec point 6). */
  synced?: true;
}

const DEFINITIONS = {
  event: { singular: 'Event', plural: 'Events', synced: true },
  professional: { singular: 'Professional', plural: 'Professionals', synced: true },
  runclub: { singular: 'Run Club', plural: 'Run Clubs', synced: true },
  brand: { singular: 'Brand', plural: 'Brands' },
  media: { singular: 'Media Outlet', plural: 'Media', notFound: 'Media outlet not found' },
  influencer: { singular: 'Influencer', plural: 'Influencers' },
} as const satisfies Record<string, Definition>;

/** A record type's id, as stored in entityType columns and used as the key of every per-type map. */
export type RecordType = keyof typeof DEFINITIONS;
type PluralOf<T extends RecordType> = (typeof DEFINITIONS)[T]['plural'];

// The derivations, once at the type level (so tables, paths and stats keys stay literal types) and once at run time.
type SnakeCase<S extends string> = S extends `${infer Head} ${infer Tail}` ? `${Lowercase<Head>}_${SnakeCase<Tail>}` : Lowercase<S>;
type Squashed<S extends string> = S extends `${infer Head} ${infer Tail}` ? `${Lowercase<Head>}${Squashed<Tail>}` : Lowercase<S>;
type CamelTail<S extends string> = S extends `${infer Head} ${infer Tail}`
  ? `${Capitalize<Lowercase<Head>>}${CamelTail<Tail>}`
  : Capitalize<Lowercase<S>>;
type CamelCase<S extends string> = S extends `${infer Head} ${infer Tail}` ? `${Lowercase<Head>}${CamelTail<Tail>}` : Lowercase<S>;

const wordsOf = (text: string) => text.split(' ');
const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
const snakeCase = (text: string) =>
  wordsOf(text)
    .map((word) => word.toLowerCase())
    .join('_');
const squashed = (text: string) =>
  wordsOf(text)
    .map((word) => word.toLowerCase())
    .join('');
const camelCase = (text: string) =>
  wordsOf(text)
    .map((word, index) => (index === 0 ? word.toLowerCase() : capitalise(word)))
    .join('');

export interface RecordTypeInfo<T extends RecordType = RecordType> {
  type: T;
  /** 'run_clubs': the table that holds the records. */
  table: SnakeCase<PluralOf<T>>;
  /** 'runclubs': the URL segment of the screens and the API. */
  segment: Squashed<PluralOf<T>>;
  /** '/runclubs': the list page; a record's page is `${path}/${id}`. */
  path: `/${Squashed<PluralOf<T>>}`;
  /** '/api/runclubs': the collection; one record is `${apiPath}/${id}`. */
  apiPath: `/api/${Squashed<PluralOf<T>>}`;
  /** 'runClubs': the key of the type's count in GET /api/stats. */
  statsKey: CamelCase<PluralOf<T>>;
  /** 'Run Club', 'Media Outlet' */
  singular: (typeof DEFINITIONS)[T]['singular'];
  /** 'Run Clubs', 'Media' */
  plural: PluralOf<T>;
  /** Lower case as it reads mid-sentence: 'run club', 'media outlet'. */
  noun: string;
  /** The plural as it reads mid-sentence: 'run clubs', 'media'. */
  pluralNoun: string;
  /** The not-found text of spec point 8: 'Run Club not found', 'Media outlet not found'. */
  notFound: string;
}

function infoOf<T extends RecordType>(type: T): RecordTypeInfo<T> {
  const words: Definition = DEFINITIONS[type];
  const segment = squashed(words.plural) as Squashed<PluralOf<T>>;
  return {
    type,
    table: snakeCase(words.plural) as SnakeCase<PluralOf<T>>,
    segment,
    path: `/${segment}`,
    apiPath: `/api/${segment}`,
    statsKey: camelCase(words.plural) as CamelCase<PluralOf<T>>,
    singular: words.singular as (typeof DEFINITIONS)[T]['singular'],
    plural: words.plural as PluralOf<T>,
    noun: words.singular.toLowerCase(),
    pluralNoun: words.plural.toLowerCase(),
    notFound: words.notFound ?? `${words.singular} not found`,
  };
}

/** Every record type, in the order the spec lists them (navigation, dashboard, messages). */
export const RECORD_TYPES = Object.keys(DEFINITIONS) as [RecordType, ...RecordType[]];

/** Everything about each record type, keyed by its id. */
export const RECORD_TYPE_INFO = Object.fromEntries(RECORD_TYPES.map((type) => [type, infoOf(type)])) as {
  [T in RecordType]: RecordTypeInfo<T>;
};

export type StatsKey = RecordTypeInfo['statsKey'];

function isRecordType(value: unknown): value is RecordType {
  return typeof value === 'string' && Object.hasOwn(DEFINITIONS, value);
}

/** The record type whose screens live under this URL segment ('runclubs' → 'runclub'), if any. */
export function recordTypeOfSegment(segment: string): RecordType | undefined {
  return RECORD_TYPES.find((type) => RECORD_TYPE_INFO[type].segment === segment);
}

/** `/api/runclubs`, or `/api/runclubs/7` for one record. */
export const recordApiPath = (type: RecordType, id?: number) =>
  id === undefined ? RECORD_TYPE_INFO[type].apiPath : `${RECORD_TYPE_INFO[type].apiPath}/${id}`;

/** `/runclubs/7`: a record's detail page. */
export const recordPagePath = (type: RecordType, id: number) => `${RECORD_TYPE_INFO[type].path}/${id}`;

/** Owner types of contacts: every record type but influencers, who have their own email and phone (spec point 3). */
export type ContactOwnerType = Exclude<RecordType, 'influencer'>;
export const CONTACT_OWNER_TYPES = RECORD_TYPES.filter((type): type is ContactOwnerType => type !== 'influencer') as [
  ContactOwnerType,
  ...ContactOwnerType[],
];

export function isContactOwnerType(value: unknown): value is ContactOwnerType {
  return isRecordType(value) && value !== 'influencer';
}

/** The types the WordPress sync fills: events, professionals and run clubs. */
export type SyncedType = { [T in RecordType]: (typeof DEFINITIONS)[T] extends { synced: true } ? T : never }[RecordType];
const SYNCED_TYPES = RECORD_TYPES.filter((type): type is SyncedType => 'synced' in DEFINITIONS[type]) as [SyncedType, ...SyncedType[]];

/** A sync is named by its type's URL segment: `pacer sync runclubs`, POST /api/sync/runclubs. */
export type SyncKind = RecordTypeInfo<SyncedType>['segment'];
export const SYNC_KINDS = SYNCED_TYPES.map((type) => RECORD_TYPE_INFO[type].segment) as [SyncKind, ...SyncKind[]];

export function isSyncKind(value: string): value is SyncKind {
  return (SYNC_KINDS as readonly string[]).includes(value);
}

/** The synced type a sync kind fills ('runclubs' → 'runclub'). */
export const syncedTypeOf = (kind: SyncKind): SyncedType => SYNCED_TYPES.find((type) => RECORD_TYPE_INFO[type].segment === kind)!;
