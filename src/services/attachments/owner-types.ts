/** Owner types of contacts (spec point 3: influencers have their own email and phone, so no contacts). */
export const CONTACT_OWNER_TYPES = ['event', 'professional', 'runclub', 'brand', 'media'] as const;
export type ContactOwnerType = (typeof CONTACT_OWNER_TYPES)[number];

/** Owner types of payments and files: every record type. */
export const RECORD_TYPES = ['event', 'professional', 'runclub', 'brand', 'media', 'influencer'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/** The table that holds each record type. */
export const RECORD_TABLES: Record<RecordType, string> = {
  event: 'events',
  professional: 'professionals',
  runclub: 'run_clubs',
  brand: 'brands',
  media: 'media',
  influencer: 'influencers',
};
