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

export const CLUB_TYPES = ['trail', 'road', 'track', 'mixed', 'social'] as const;

export const LOCATION_STATES = ['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT', 'NZ'] as const;

export const INVOICE_STATUSES = ['pending', 'paid', 'overdue', 'cancelled'] as const;

/** Bulk actions (delete, tags, export of a selection) take at most this many ids a call. */
export const MAX_BULK_IDS = 1000;
