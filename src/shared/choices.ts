/**
 * The fixed choices of the records' fields and the limits forms and lists show: plain values, free of zod, so the
 * browser's screens carry them without the schemas (each schema module builds its checks from them and re-exports
 * them).
 */

export const INFLUENCER_TYPES = ['influencer', 'pro', 'both'] as const;

export const PROFESSION_TYPES = [
  'coach',
  'physiotherapist',
  'nutritionist',
  'podiatrist',
  'massage-therapist',
  'trainer',
  'other',
] as const;

export const SUBSCRIPTION_STATUSES = ['active', 'expired', 'pending'] as const;

/** `other`: a type the content website gives outside this list; the record keeps the site's words beside it. */
export const CLUB_TYPES = ['trail', 'road', 'track', 'mixed', 'social', 'other'] as const;

/**
 * The run types (distances and formats) and track types (surfaces) the forms offer. Stored as slugs; a value the
 * content website adds later is stored slugified too (`typeSlug`) and reads as its words.
 */
export const RUN_TYPES = ['5k', '10k', 'half-marathon', 'marathon', 'ultra', 'relay', 'fun-run', 'cross-country'] as const;

export const TRACK_TYPES = ['road', 'trail', 'track', 'park', 'mountain', 'beach'] as const;

/** The one stored form of a run or track type: "Half Marathon", "half_marathon", " HALF  marathon" → "half-marathon". */
export function typeSlug(value: string): string {
  return value
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}.]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

export const LOCATION_STATES = ['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT', 'NZ'] as const;

export const INVOICE_STATUSES = ['pending', 'paid', 'overdue', 'cancelled'] as const;

/** Bulk actions (delete, tags, export of a selection) take at most this many ids a call. */
export const MAX_BULK_IDS = 1000;
