import * as z from 'zod';
import type { Audit } from '../fields.js';
import {
  flag,
  location,
  MAX_TEXT_LENGTH,
  optionalDate,
  optionalText,
  optionalUrl,
  requiredName,
  typeSlugList,
  type StoredValues,
  type Synced,
} from './fields.js';

export const EventInputSchema = z
  .object({
    eventName: requiredName('Event name is required'),
    eventStartDate: optionalDate(),
    eventEndDate: optionalDate(),
    websiteUrl: optionalUrl(),
    ...location,
    runType: typeSlugList(),
    trackType: typeSlugList(),
    featuredRace: flag(),
    entryCost: optionalText(MAX_TEXT_LENGTH),
    prizes: optionalText(MAX_TEXT_LENGTH),
    lastNewsletterInclusion: optionalDate(),
    newsletterInclusionNotes: optionalText(MAX_TEXT_LENGTH),
    notes: optionalText(MAX_TEXT_LENGTH),
  })
  .strict();

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
