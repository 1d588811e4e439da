import type { ColumnKinds } from './codecs.js';

/** Column kinds per table: the only place that says how a stored value is decoded. */
const audit = { createdAt: 'timestamp', updatedAt: 'timestamp', createdBy: 'integer' } as const;
const money = { kind: 'money', scale: 2 } as const;
const lat = { kind: 'decimal', scale: 8 } as const;
const lng = { kind: 'decimal', scale: 8 } as const;
const distance = { kind: 'decimal', scale: 2 } as const;

export const columnKinds = {
  users: { isActive: 'boolean', createdAt: 'timestamp', lastLogin: 'timestamp', sessionVersion: 'integer' },
  contacts: { ...audit, mailchimpTags: 'list', isPrimary: 'boolean', entityId: 'integer' },
  events: {
    ...audit,
    eventStartDate: 'date',
    eventEndDate: 'date',
    locationLat: lat,
    locationLng: lng,
    runType: 'list',
    trackType: 'list',
    featuredRace: 'boolean',
    galleryImages: 'list',
    lastNewsletterInclusion: 'date',
    totalAdvertisingSpend: money,
    wordpressLastSync: 'timestamp',
    wordpressEventId: 'integer',
  },
  event_distances: {
    createdAt: 'timestamp',
    distanceKm: distance,
    distanceStartDate: 'date',
    entryFee: money,
    prizes: 'list',
    participantsCount: 'integer',
  },
  professionals: {
    ...audit,
    contactType: 'list',
    trackType: 'list',
    specializations: 'list',
    credentials: 'list',
    deliveryMethods: 'list',
    locationLat: lat,
    locationLng: lng,
    subscriptionExpiryDate: 'date',
    totalPayments: money,
    paymentAlertFlag: 'boolean',
    lastNewsletterInclusion: 'date',
    wordpressLastSync: 'timestamp',
    wordpressProfessionalId: 'integer',
  },
  run_clubs: {
    ...audit,
    clubType: 'list',
    meetingTimes: 'list',
    locationLat: lat,
    locationLng: lng,
    foundedYear: 'integer',
    membershipCount: 'integer',
    averageAttendance: 'integer',
    isPayingMember: 'boolean',
    totalPayments: money,
    lastNewsletterInclusion: 'date',
    wordpressLastSync: 'timestamp',
    wordpressClubId: 'integer',
  },
  run_club_schedules: {
    createdAt: 'timestamp',
    specificDate: 'date',
    isRecurring: 'boolean',
    locationLat: lat,
    locationLng: lng,
  },
  brands: { ...audit, totalAdvertisingSpend: money, lastCampaignEndDate: 'date' },
  media: { ...audit },
  influencers: { ...audit },
  payments: { ...audit, entityId: 'integer', amount: money, paymentDate: 'date', startDate: 'date', endDate: 'date' },
  files: { entityId: 'integer', fileSize: 'integer', uploadedAt: 'timestamp', uploadedBy: 'integer' },
  mailchimp_tags: { entityTypes: 'list', isActive: 'boolean', createdAt: 'timestamp' },
  sync_runs: {
    startedAt: 'timestamp',
    finishedAt: 'timestamp',
    created: 'integer',
    updated: 'integer',
    failed: 'integer',
    durationMs: 'integer',
    startedBy: 'integer',
    errors: 'list',
    success: 'boolean',
    notices: 'list',
    full: 'boolean',
  },
  sync_locks: { acquiredAt: 'timestamp', heartbeatAt: 'timestamp' },
} satisfies Record<string, ColumnKinds>;

export type TableName = keyof typeof columnKinds;
