import { CLUB_TYPES, LOCATION_STATES, PROFESSION_TYPES } from '@shared/schemas/records.js';
import { RECORD_TYPE_INFO, syncedTypeOf, type RecordTypeInfo, type SyncedType, type SyncKind } from '@shared/record-types.js';

/**
 * The content model, in one place: which WordPress post type feeds which CRM table, and which post field feeds
 * which column. Fields are read from the post's `meta` (register_post_meta with show_in_rest) or, when a site
 * exposes Advanced Custom Fields instead, from `acf`, under the snake_case key of our column name. A site with
 * other names or post types changes only this file. Columns not listed here (notes, newsletter fields,
 * payments, subscriptions, …) belong to the CRM and a sync never writes them.
 */

type FieldType =
  | { type: 'text'; max: number }
  | { type: 'url' }
  | { type: 'email' }
  | { type: 'date' }
  | { type: 'integer'; min: number; max: number }
  | { type: 'decimal'; scale: number; limit: number }
  | { type: 'boolean' }
  | { type: 'list' }
  /** Run and track types: each value stored as its slug ('Half Marathon' → 'half-marathon'). */
  | { type: 'slugList' }
  | ({ type: 'enum'; values: readonly string[]; aliases?: Record<string, string> } & OtherValue)
  | ({ type: 'enumList'; values: readonly string[]; aliases?: Record<string, string> } & OtherValue);

/**
 * `otherColumn`: a value outside the list is stored as `other` and the site's own words go to this column (a
 * warning, not an error: nothing is lost). Without it the value is left out (an error).
 */
interface OtherValue {
  otherColumn?: string;
}

export type FieldSpec = FieldType & {
  /** The CRM column. */
  column: string;
  /** The key in `meta` / `acf`; defaults to the column name in snake_case. */
  key?: string;
  /** How the field is named in sync messages. */
  label: string;
};

export interface PostTypeModel {
  kind: SyncKind;
  /** Singular, for messages: "Event 'Harbour Half' (WordPress id 12): …". */
  noun: string;
  /** Plural, for the summary message. */
  plural: string;
  /** /wp-json/wp/v2/<restBase> */
  restBase: string;
  table: RecordTypeInfo<SyncedType>['table'];
  recordType: SyncedType;
  /** The unique column holding the WordPress post id. */
  idColumn: 'wordpressEventId' | 'wordpressProfessionalId' | 'wordpressClubId';
  /** The name column; when its field is empty the post title is the name. */
  name: FieldSpec & { type: 'text' };
  fields: FieldSpec[];
}

/** Full state and territory names a site may use instead of the abbreviation. */
const STATE_ALIASES: Record<string, string> = {
  'new-south-wales': 'NSW',
  victoria: 'VIC',
  queensland: 'QLD',
  'western-australia': 'WA',
  'south-australia': 'SA',
  tasmania: 'TAS',
  'australian-capital-territory': 'ACT',
  'northern-territory': 'NT',
  'new-zealand': 'NZ',
};

const PROFESSION_ALIASES: Record<string, string> = {
  physio: 'physiotherapist',
  physiotherapy: 'physiotherapist',
  'running-coach': 'coach',
  'personal-trainer': 'trainer',
  'massage-therapy': 'massage-therapist',
  'sports-dietitian': 'nutritionist',
  dietitian: 'nutritionist',
};

const location: FieldSpec[] = [
  { column: 'locationAddress', label: 'address', type: 'text', max: 500 },
  { column: 'locationLat', label: 'latitude', type: 'decimal', scale: 8, limit: 90 },
  { column: 'locationLng', label: 'longitude', type: 'decimal', scale: 8, limit: 180 },
  { column: 'locationState', label: 'state', type: 'enum', values: LOCATION_STATES, aliases: STATE_ALIASES },
];

const UNSIGNED_INT_MAX = 4_294_967_295;

/** What a post type model takes from the shared vocabulary: "Run club 'Dawn Patrol' …", "3 run clubs read". */
function vocabulary(kind: SyncKind) {
  const recordType = syncedTypeOf(kind);
  const { noun, pluralNoun, table } = RECORD_TYPE_INFO[recordType];
  return { kind, noun: noun.charAt(0).toUpperCase() + noun.slice(1), plural: pluralNoun, table, recordType };
}

export const CONTENT_MODEL: Record<SyncKind, PostTypeModel> = {
  events: {
    ...vocabulary('events'),
    restBase: 'events',
    idColumn: 'wordpressEventId',
    name: { column: 'eventName', label: 'name', type: 'text', max: 255 },
    fields: [
      { column: 'eventStartDate', label: 'start date', type: 'date' },
      { column: 'eventEndDate', label: 'end date', type: 'date' },
      { column: 'websiteUrl', label: 'website', type: 'url' },
      ...location,
      { column: 'runType', label: 'run type', type: 'slugList' },
      { column: 'trackType', label: 'track type', type: 'slugList' },
      { column: 'featuredRace', label: 'featured', type: 'boolean' },
      { column: 'entryCost', label: 'entry cost', type: 'text', max: 10_000 },
      { column: 'prizes', label: 'prizes', type: 'text', max: 10_000 },
      { column: 'galleryImages', label: 'gallery images', type: 'list' },
    ],
  },
  professionals: {
    ...vocabulary('professionals'),
    restBase: 'professionals',
    idColumn: 'wordpressProfessionalId',
    name: { column: 'businessName', label: 'business name', type: 'text', max: 255 },
    fields: [
      {
        column: 'professionType',
        label: 'profession type',
        type: 'enum',
        values: PROFESSION_TYPES,
        aliases: PROFESSION_ALIASES,
        otherColumn: 'professionTypeOther',
      },
      { column: 'contactType', label: 'contact type', type: 'list' },
      { column: 'trackType', label: 'track type', type: 'slugList' },
      { column: 'specializations', label: 'specializations', type: 'list' },
      { column: 'credentials', label: 'credentials', type: 'list' },
      { column: 'deliveryMethods', label: 'delivery methods', type: 'list' },
      ...location,
      { column: 'websiteUrl', label: 'website', type: 'url' },
      { column: 'instagramUrl', label: 'Instagram', type: 'url' },
      { column: 'facebookUrl', label: 'Facebook', type: 'url' },
    ],
  },
  runclubs: {
    ...vocabulary('runclubs'),
    restBase: 'run-clubs',
    idColumn: 'wordpressClubId',
    name: { column: 'clubName', label: 'club name', type: 'text', max: 255 },
    fields: [
      ...location,
      { column: 'clubType', label: 'club type', type: 'enumList', values: CLUB_TYPES, otherColumn: 'clubTypeOther' },
      { column: 'foundedYear', label: 'founded year', type: 'integer', min: 1800, max: 2100 },
      { column: 'membershipCount', label: 'membership count', type: 'integer', min: 0, max: UNSIGNED_INT_MAX },
      { column: 'meetingTimes', label: 'meeting times', type: 'list' },
      { column: 'cost', label: 'cost', type: 'text', max: 255 },
      { column: 'averageAttendance', label: 'average attendance', type: 'integer', min: 0, max: UNSIGNED_INT_MAX },
      { column: 'websiteUrl', label: 'website', type: 'url' },
      { column: 'instagramUrl', label: 'Instagram', type: 'url' },
      { column: 'facebookUrl', label: 'Facebook', type: 'url' },
      { column: 'founderInstagramUrl', label: 'founder Instagram', type: 'url' },
      { column: 'clubEmail', label: 'club email', type: 'email' },
      { column: 'extras', label: 'extras', type: 'text', max: 10_000 },
      { column: 'footnote', label: 'footnote', type: 'text', max: 10_000 },
      { column: 'socialTitle', label: 'social title', type: 'text', max: 255 },
    ],
  },
};

/** eventStartDate → event_start_date */
export function snakeCase(column: string): string {
  return column.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

export const fieldKey = (field: FieldSpec) => field.key ?? snakeCase(field.column);

/** Every column a sync of this post type writes from the post: the fields' own and their `otherColumn`s. */
export function syncedColumns(model: PostTypeModel): string[] {
  return model.fields.flatMap((field) =>
    (field.type === 'enum' || field.type === 'enumList') && field.otherColumn ? [field.column, field.otherColumn] : [field.column],
  );
}
