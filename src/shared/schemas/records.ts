import { z } from 'zod';
import { RECORD_TYPE_INFO, type RecordType, type StatsKey } from '../record-types.js';
import { blankToNull, type Audit } from './fields.js';
import { text } from './text.js';

/**
 * The six record types (events, professionals, run clubs, brands, media, influencers): their form schemas,
 * list query parameters, presenter shapes and API paths. Browser-safe: the forms validate with the very schemas
 * the API parses with, so a message the browser shows is the message the server would answer.
 *
 * Write semantics (docs/decisions/0010-record-field-mapping.md):
 * - POST and PUT take the same schema: the whole form. PUT REPLACES every form field; a form field that is
 *   omitted is stored as its empty value (null, [] or the field's default), never "kept as it was".
 * - Fields that are not form fields (ids, wordpress ids, sync times, galleryImages, createdAt, createdBy,
 *   updatedAt, and the payment totals totalPayments / totalAdvertisingSpend, which always equal the sum of the
 *   record's payments) are never accepted from the client (unknown keys are rejected) and PUT keeps them.
 * - Empty strings from form inputs mean "no value" (null) for optional fields.
 */

// ---------------------------------------------------------------------------------------------------------
// Enumerations (spec point 3)

export const PROFESSION_TYPES = ['coach', 'physiotherapist', 'nutritionist', 'podiatrist', 'massage-therapist', 'trainer', 'other'] as const;
export type ProfessionType = (typeof PROFESSION_TYPES)[number];

export const LOCATION_STATES = ['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT', 'NZ'] as const;
export type LocationState = (typeof LOCATION_STATES)[number];

export const CLUB_TYPES = ['trail', 'road', 'track', 'mixed', 'social'] as const;
export type ClubType = (typeof CLUB_TYPES)[number];

export const SUBSCRIPTION_STATUSES = ['active', 'expired', 'pending'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const INFLUENCER_TYPES = ['influencer', 'pro', 'both'] as const;
export type InfluencerType = (typeof INFLUENCER_TYPES)[number];

// ---------------------------------------------------------------------------------------------------------
// Limits

/** Items per list page when the client names no limit, and the most one request may ask for. */
export const PAGE_SIZE = 24;
export const MAX_LIMIT = 100;
/** Longest search text accepted; longer text is a 400, not a silent cut. */
export const MAX_QUERY_LENGTH = 200;
/** Free text (TEXT columns hold 65,535 bytes; 4-byte characters times this stays inside). */
export const MAX_TEXT_LENGTH = 10_000;
export const MAX_URL_LENGTH = 2048;
export const MAX_LIST_ITEMS = 100;
export const MAX_LIST_ITEM_LENGTH = 500;

// ---------------------------------------------------------------------------------------------------------
// Field builders

/**
 * Fields normalise their input in a preprocess step, which zod types as `unknown`; this restores the input type
 * the browser forms should send. ZodDefault is the shape zod itself uses for "optional in, always set out".
 */
const typed = <Out, In>(schema: z.ZodType) => schema as unknown as z.ZodDefault<z.ZodType<Out, In>>;

const tooLong = (max: number) => `Must be at most ${max} characters`;

/** Required name: trimmed, not blank; the same message whether it is missing, blank or not text. */
const requiredName = (message: string, max = 255) => text(message).trim().min(1, message).max(max, tooLong(max));

/** Optional text: '' or blank becomes null; omitted becomes null. */
const optionalText = (max: number) =>
  typed<string | null, string | null>(
    z.preprocess(blankToNull, text('Must be text').trim().max(max, tooLong(max)).nullable()).optional().transform((v) => v ?? null),
  );

const textWithDefault = (max: number, fallback: string) =>
  typed<string, string | null>(
    z.preprocess(blankToNull, text('Must be text').trim().max(max, tooLong(max)).nullable()).optional().transform((v) => v ?? fallback),
  );

/** URLs travel and are stored as text (content-site data is not always a well-formed URL). */
const optionalUrl = () => optionalText(MAX_URL_LENGTH);

const optionalEnum = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  typed<T[number] | null, T[number] | '' | null>(
    z
      .preprocess(blankToNull, z.enum(values, { error: `${label} must be one of: ${values.join(', ')}` }).nullable())
      .optional()
      .transform((v) => v ?? null),
  );

const enumWithDefault = <T extends readonly [string, ...string[]]>(values: T, fallback: T[number], label: string) =>
  typed<T[number], T[number] | '' | null>(
    z
      .preprocess(blankToNull, z.enum(values, { error: `${label} must be one of: ${values.join(', ')}` }).nullable())
      .optional()
      .transform((v): T[number] => v ?? fallback),
  );

const textList = () =>
  z
    .array(text('List items must be text').trim().max(MAX_LIST_ITEM_LENGTH, tooLong(MAX_LIST_ITEM_LENGTH)), { error: 'Must be a list of text values' })
    .max(MAX_LIST_ITEMS, `At most ${MAX_LIST_ITEMS} entries`)
    .nullable()
    .optional()
    .transform((list) => (list ?? []).filter((item) => item !== ''));

const enumList = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z
    .array(z.enum(values, { error: `${label} must be one of: ${values.join(', ')}` }), { error: 'Must be a list' })
    .max(values.length * 2)
    .nullable()
    .optional()
    .transform((list): Array<T[number]> => [...new Set(list ?? [])]);

const isRealDate = (text: string) => {
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return y >= 1000 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
};

/** 'YYYY-MM-DD', a real calendar day. */
export const DateText = text('Must be a date (YYYY-MM-DD)')
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Must be a date (YYYY-MM-DD)')
  .refine(isRealDate, 'Must be a real date (YYYY-MM-DD)');
const optionalDate = () =>
  typed<string | null, string | null>(z.preprocess(blankToNull, DateText.nullable()).optional().transform((v) => v ?? null));

const coordinate = (integerDigits: number, limit: number, label: string) =>
  typed<string | null, string | null>(
    z
    .preprocess(
      blankToNull,
      text(`${label} must be a decimal number`)
        .trim()
        .regex(new RegExp(`^-?\\d{1,${integerDigits}}(\\.\\d{1,8})?$`), `${label} must be a decimal number with at most 8 decimals`)
        .refine((text) => Math.abs(Number(text)) <= limit, `${label} must be between -${limit} and ${limit}`)
        .nullable(),
    )
    .optional()
    .transform((v) => v ?? null),
  );

/** A whole number, or null when empty ('' or null). Digit strings from form inputs are accepted. */
const wholeNumber = (label: string, min: number, max: number) =>
  typed<number | null, number | string | null>(
    z
    .preprocess(
      (value) => {
        const blank = blankToNull(value);
        return typeof blank === 'string' && /^\s*\d+\s*$/.test(blank) ? Number(blank) : blank;
      },
      z
        .number({ error: `${label} must be a whole number` })
        .int(`${label} must be a whole number`)
        .min(min, `${label} must be at least ${min}`)
        .max(max, `${label} must be at most ${max}`)
        .nullable(),
    )
    .optional()
    .transform((v) => v ?? null),
  );

const flag = () => z.boolean({ error: 'Must be true or false' }).optional().transform((v) => v ?? false);

/** Social handles are stored without a leading @ (spec point 3). */
const optionalHandle = (max: number) =>
  typed<string | null, string | null>(
    z.preprocess((value) => (typeof value === 'string' ? value.trim().replace(/^@+/, '') : value), optionalText(max)),
  );

const location = {
  locationAddress: optionalText(500),
  locationLat: coordinate(2, 90, 'Latitude'),
  locationLng: coordinate(3, 180, 'Longitude'),
  locationState: optionalEnum(LOCATION_STATES, 'State'),
};

// ---------------------------------------------------------------------------------------------------------
// Form schemas (POST and PUT bodies)

export const EventInputSchema = z
  .object({
    eventName: requiredName('Event name is required'),
    eventStartDate: optionalDate(),
    eventEndDate: optionalDate(),
    websiteUrl: optionalUrl(),
    ...location,
    runType: textList(),
    trackType: textList(),
    featuredRace: flag(),
    entryCost: optionalText(MAX_TEXT_LENGTH),
    prizes: optionalText(MAX_TEXT_LENGTH),
    lastNewsletterInclusion: optionalDate(),
    newsletterInclusionNotes: optionalText(MAX_TEXT_LENGTH),
    notes: optionalText(MAX_TEXT_LENGTH),
  })
  .strict();
export type EventInput = z.input<typeof EventInputSchema>;
export type EventValues = z.output<typeof EventInputSchema>;

/** wordpressProfessionalId is deliberately absent: a professional created or edited here stays unpublished. */
export const ProfessionalInputSchema = z
  .object({
    businessName: requiredName('Business name is required'),
    professionType: optionalEnum(PROFESSION_TYPES, 'Profession type'),
    contactType: textList(),
    trackType: textList(),
    specializations: textList(),
    credentials: textList(),
    deliveryMethods: textList(),
    ...location,
    websiteUrl: optionalUrl(),
    instagramUrl: optionalUrl(),
    facebookUrl: optionalUrl(),
    subscriptionStatus: enumWithDefault(SUBSCRIPTION_STATUSES, 'active', 'Subscription status'),
    subscriptionExpiryDate: optionalDate(),
    paymentAlertFlag: flag(),
    lastNewsletterInclusion: optionalDate(),
    newsletterInclusionNotes: optionalText(MAX_TEXT_LENGTH),
    notes: optionalText(MAX_TEXT_LENGTH),
  })
  .strict();
export type ProfessionalInput = z.input<typeof ProfessionalInputSchema>;
export type ProfessionalValues = z.output<typeof ProfessionalInputSchema>;

const UNSIGNED_INT_MAX = 4_294_967_295;

export const RunClubInputSchema = z
  .object({
    clubName: requiredName('Club name is required'),
    ...location,
    clubType: enumList(CLUB_TYPES, 'Club type'),
    foundedYear: wholeNumber('Founded year', 1800, 2100),
    membershipCount: wholeNumber('Membership count', 0, UNSIGNED_INT_MAX),
    meetingTimes: textList(),
    cost: optionalText(255),
    averageAttendance: wholeNumber('Average attendance', 0, UNSIGNED_INT_MAX),
    websiteUrl: optionalUrl(),
    instagramUrl: optionalUrl(),
    facebookUrl: optionalUrl(),
    founderInstagramUrl: optionalUrl(),
    clubEmail: optionalText(320),
    isPayingMember: flag(),
    paymentStatus: textWithDefault(20, 'none'),
    extras: optionalText(MAX_TEXT_LENGTH),
    footnote: optionalText(MAX_TEXT_LENGTH),
    socialTitle: optionalText(255),
    lastNewsletterInclusion: optionalDate(),
    newsletterInclusionNotes: optionalText(MAX_TEXT_LENGTH),
    notes: optionalText(MAX_TEXT_LENGTH),
  })
  .strict();
export type RunClubInput = z.input<typeof RunClubInputSchema>;
export type RunClubValues = z.output<typeof RunClubInputSchema>;

export const BrandInputSchema = z
  .object({
    brandName: requiredName('Brand name is required'),
    industryCategory: optionalText(255),
    websiteUrl: optionalUrl(),
    instagramUrl: optionalUrl(),
    facebookUrl: optionalUrl(),
    linkedinUrl: optionalUrl(),
    notes: optionalText(MAX_TEXT_LENGTH),
    paymentStatus: textWithDefault(20, 'current'),
    lastCampaignEndDate: optionalDate(),
    locationState: optionalEnum(LOCATION_STATES, 'State'),
  })
  .strict();
export type BrandInput = z.input<typeof BrandInputSchema>;
export type BrandValues = z.output<typeof BrandInputSchema>;

export const MediaInputSchema = z
  .object({
    mediaName: requiredName('Media name is required'),
    industry: optionalText(255),
    websiteUrl: optionalUrl(),
    instagramUrl: optionalUrl(),
    notes: optionalText(MAX_TEXT_LENGTH),
  })
  .strict();
export type MediaInput = z.input<typeof MediaInputSchema>;
export type MediaValues = z.output<typeof MediaInputSchema>;

export const InfluencerInputSchema = z
  .object({
    firstName: requiredName('First name is required', 100),
    lastName: requiredName('Last name is required', 100),
    influencerType: enumWithDefault(INFLUENCER_TYPES, 'influencer', 'Type'),
    instagramHandle: optionalHandle(100),
    tiktokHandle: optionalHandle(100),
    facebookHandle: optionalHandle(255),
    websiteUrl: optionalUrl(),
    email: optionalText(320),
    phone: optionalText(50),
    notes: optionalText(MAX_TEXT_LENGTH),
  })
  .strict();
export type InfluencerInput = z.input<typeof InfluencerInputSchema>;
export type InfluencerValues = z.output<typeof InfluencerInputSchema>;

// ---------------------------------------------------------------------------------------------------------
// Presenter shapes (what GET answers; dates 'YYYY-MM-DD', timestamps ISO-8601 UTC, money "12.30")

/**
 * An enum column is free text in the database: a synced post or an older row may carry another word than the
 * form offers, and the presenter answers what is stored. So a wire type takes the form's fields with every enum
 * widened to string (lists of enum words to string[]); everything else is exactly the schema's output.
 */
type Stored<V> = V extends string ? string : V extends ReadonlyArray<infer Item> ? Array<Stored<Item>> : V;
type StoredValues<Schema extends z.ZodType> = { [Field in keyof z.output<Schema>]: Stored<z.output<Schema>[Field]> };

/** When the sync last wrote the record (each synced type also keeps its own WordPress post id column). */
interface Synced {
  wordpressLastSync: string | null;
}

export interface EventSummary extends Audit, Synced, StoredValues<typeof EventInputSchema> {
  wordpressEventId: number | null;
  galleryImages: string[];
  /** The sum of the event's payments, e.g. "120.50". */
  totalAdvertisingSpend: string;
}

export interface EventDistance {
  id: number;
  eventId: number;
  distanceKm: string | null;
  distanceStartDate: string | null;
  distanceStartTime: string | null;
  entryFee: string | null;
  participantsCount: number | null;
  gpxFilePath: string | null;
  stravaLink: string | null;
  elevationTitle: string | null;
  medianTime: string | null;
  lastTime: string | null;
  prizes: string[];
  prizeDescription: string | null;
  recommendTitle: string | null;
  productUrl: string | null;
  productImagePath: string | null;
  createdAt: string;
}

/** GET /api/events/:id */
export interface Event extends EventSummary {
  distances: EventDistance[];
}

export interface Professional extends Audit, Synced, StoredValues<typeof ProfessionalInputSchema> {
  /** Set by the sync only: a professional created here stays unpublished. */
  wordpressProfessionalId: number | null;
  /** The sum of the professional's payments. */
  totalPayments: string;
}

export interface RunClubSummary extends Audit, Synced, StoredValues<typeof RunClubInputSchema> {
  wordpressClubId: number | null;
  /** The sum of the club's payments. */
  totalPayments: string;
}

export interface RunClubSchedule {
  id: number;
  clubId: number;
  title: string | null;
  dayOfWeek: string | null;
  specificDate: string | null;
  startTime: string | null;
  endTime: string | null;
  isRecurring: boolean;
  description: string | null;
  runStyle: string | null;
  cost: string | null;
  locationAddress: string | null;
  locationLat: string | null;
  locationLng: string | null;
  createdAt: string;
}

/** GET /api/runclubs/:id */
export interface RunClub extends RunClubSummary {
  schedules: RunClubSchedule[];
}

export interface Brand extends Audit, StoredValues<typeof BrandInputSchema> {
  /** The sum of the brand's payments. */
  totalAdvertisingSpend: string;
}

export type Media = Audit & StoredValues<typeof MediaInputSchema>;

export type Influencer = Audit & StoredValues<typeof InfluencerInputSchema>;

/** The presenter shape of each type: list items, and the one-record view (events and run clubs add their rows). */
export interface RecordShapes {
  event: { item: EventSummary; detail: Event };
  professional: { item: Professional; detail: Professional };
  runclub: { item: RunClubSummary; detail: RunClub };
  brand: { item: Brand; detail: Brand };
  media: { item: Media; detail: Media };
  influencer: { item: Influencer; detail: Influencer };
}
export type RecordItem<K extends keyof RecordShapes> = RecordShapes[K]['item'];
export type RecordDetail<K extends keyof RecordShapes> = RecordShapes[K]['detail'];

/** Every list endpoint answers one page and the total number of matches. */
export interface Page<T> {
  items: T[];
  total: number;
}

/** GET /api/events/:id/wordpress-url */
export interface WordpressUrl {
  wordpressUrl: string;
}

/** GET /api/stats: the count of each record type, under its stats key ('runClubs'). */
export type Stats = Record<StatsKey, number>;

// ---------------------------------------------------------------------------------------------------------
// Sorts and list query parameters per record type

export const eventWordpressUrlPath = (id: number) => `${RECORD_TYPE_INFO.event.apiPath}/${id}/wordpress-url`;

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
    .preprocess((v) => (v === '' ? undefined : v), z.enum(SORTS[kind], { error: `sort must be one of: ${SORTS[kind].join(', ')}` }).optional())
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
      .preprocess((v) => (v === '' ? undefined : v), z.enum(EVENT_FILTERS, { error: `filter must be one of: ${EVENT_FILTERS.join(', ')}` }).optional())
      .transform((v): EventFilter => v ?? 'all'),
  }),
  professional: z.object(baseListQuery('professional')),
  runclub: z.object({
    ...baseListQuery('runclub'),
    type: z
      .preprocess((v) => (v === '' ? undefined : v), z.enum(RUN_CLUB_TYPE_FILTERS, { error: `type must be one of: ${RUN_CLUB_TYPE_FILTERS.join(', ')}` }).optional())
      .transform((v): RunClubTypeFilter => v ?? 'all'),
  }),
  brand: z.object(baseListQuery('brand')),
  media: z.object(baseListQuery('media')),
  influencer: z.object(baseListQuery('influencer')),
} as const;
export type ListQuery<K extends RecordType> = z.output<(typeof ListQuerySchemas)[K]>;
/** What a client may put in a list URL (all optional). */
export type ListParams<K extends RecordType> = Partial<Record<keyof z.input<(typeof ListQuerySchemas)[K]>, string | number>>;

/** Form schema per record type. */
export const RecordInputSchemas = {
  event: EventInputSchema,
  professional: ProfessionalInputSchema,
  runclub: RunClubInputSchema,
  brand: BrandInputSchema,
  media: MediaInputSchema,
  influencer: InfluencerInputSchema,
} as const;

