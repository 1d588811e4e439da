import type { RecordType, StatsKey } from '../record-types.js';
import { BrandInputSchema, type Brand } from './records/brand.js';
import { EventInputSchema, type Event, type EventSummary } from './records/event.js';
import { InfluencerInputSchema, type Influencer } from './records/influencer.js';
import { MediaInputSchema, type Media } from './records/media.js';
import { ProfessionalInputSchema, type Professional } from './records/professional.js';
import { RunClubInputSchema, type RunClub, type RunClubSummary } from './records/runclub.js';

/**
 * The six record types (events, professionals, run clubs, brands, media, influencers). Each type's enums, form
 * schema and wire type live in its own file under records/ (fields.ts holds the shared field builders, lists.ts
 * the list query parameters); this module re-exports them, so callers import from one place, and ties the six
 * together per record type.
 */
export * from './records/brand.js';
export * from './records/event.js';
export * from './records/influencer.js';
export * from './records/media.js';
export * from './records/professional.js';
export * from './records/runclub.js';
export * from './records/lists.js';
export { LOCATION_STATES } from './records/fields.js';

/** Form schema per record type. */
export const RecordInputSchemas = {
  event: EventInputSchema,
  professional: ProfessionalInputSchema,
  runclub: RunClubInputSchema,
  brand: BrandInputSchema,
  media: MediaInputSchema,
  influencer: InfluencerInputSchema,
} as const satisfies Record<RecordType, unknown>;

/** The presenter shape of each type: list items, and the one-record view (events and run clubs add their rows). */
interface RecordShapes {
  event: { item: EventSummary; detail: Event };
  professional: { item: Professional; detail: Professional };
  runclub: { item: RunClubSummary; detail: RunClub };
  brand: { item: Brand; detail: Brand };
  media: { item: Media; detail: Media };
  influencer: { item: Influencer; detail: Influencer };
}
export type RecordItem<K extends keyof RecordShapes> = RecordShapes[K]['item'];
export type RecordDetail<K extends keyof RecordShapes> = RecordShapes[K]['detail'];

/**
 * Every list endpoint (the record lists and the contacts directory) answers one page, the total number of matches
 * and the cursors of the pages around it (`?after=next`, `?before=prev`), null at either end (and `prev` on the
 * first page).
 */
export interface ListPage<T> {
  items: T[];
  total: number;
  next: string | null;
  prev: string | null;
}

/** GET /api/events/:id/wordpress-url */
export interface WordpressUrl {
  wordpressUrl: string;
}

/** GET /api/stats: the count of each record type, under its stats key ('runClubs'). */
export type Stats = Record<StatsKey, number>;
