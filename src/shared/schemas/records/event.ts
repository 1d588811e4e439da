import { EVENT } from '@shared/records/event.js';
import { zodSchemaOf } from '@shared/records/zod.js';
import type { Audit } from '../fields.js';
import { type StoredValues, type Synced } from './fields.js';

/** The form fields, from the definition (src/shared/records/event.ts). */
export const EventInputSchema = zodSchemaOf(EVENT);

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
