import type { ColumnKinds } from './codecs.js';
import { columnKindsOf, recordDefinition } from '@shared/records/index.js';

/**
 * Column kinds per table: the only place that says how a stored value is decoded; a record table's come from its
 * definition (src/shared/records/).
 */
const audit = { createdAt: 'timestamp', updatedAt: 'timestamp', createdBy: 'integer' } as const;
const money = { kind: 'money', scale: 2 } as const;
const lat = { kind: 'decimal', scale: 8 } as const;
const lng = { kind: 'decimal', scale: 8 } as const;
const distance = { kind: 'decimal', scale: 2 } as const;

export const columnKinds = {
  users: { isActive: 'boolean', createdAt: 'timestamp', lastLogin: 'timestamp', sessionVersion: 'integer' },
  sessions: { userId: 'integer', createdAt: 'timestamp', lastSeenAt: 'timestamp' },
  api_tokens: { createdAt: 'timestamp', createdBy: 'integer', expiresAt: 'timestamp', revokedAt: 'timestamp', lastUsedAt: 'timestamp' },
  /** A user row read with its session in one query (the per-request check). */
  session_users: {
    isActive: 'boolean',
    createdAt: 'timestamp',
    lastLogin: 'timestamp',
    sessionVersion: 'integer',
    sessionCreatedAt: 'timestamp',
    sessionLastSeenAt: 'timestamp',
    secondFactorSetupRequired: 'boolean',
  },
  sign_in_events: { occurredAt: 'timestamp', succeeded: 'boolean' },
  user_second_factors: {
    createdAt: 'timestamp',
    confirmedAt: 'timestamp',
    lastUsedAt: 'timestamp',
    lastUsedStep: 'integer',
    signCount: 'integer',
  },
  webauthn_challenges: { expiresAt: 'timestamp', userId: 'integer' },
  alert_streaks: { failingSince: 'timestamp', alertedAt: 'timestamp', updatedAt: 'timestamp', failures: 'integer' },
  contacts: { ...audit, mailchimpTags: 'list', isPrimary: 'boolean', entityId: 'integer' },
  events: columnKindsOf(recordDefinition('event')),
  event_distances: {
    createdAt: 'timestamp',
    distanceKm: distance,
    distanceStartDate: 'date',
    entryFee: money,
    prizes: 'list',
    participantsCount: 'integer',
  },
  professionals: columnKindsOf(recordDefinition('professional')),
  run_clubs: columnKindsOf(recordDefinition('runclub')),
  run_club_schedules: {
    createdAt: 'timestamp',
    specificDate: 'date',
    isRecurring: 'boolean',
    locationLat: lat,
    locationLng: lng,
  },
  brands: columnKindsOf(recordDefinition('brand')),
  media: columnKindsOf(recordDefinition('media')),
  influencers: columnKindsOf(recordDefinition('influencer')),
  payments: { ...audit, entityId: 'integer', amount: money, paymentDate: 'date', startDate: 'date', endDate: 'date' },
  files: { entityId: 'integer', fileSize: 'integer', uploadedAt: 'timestamp', uploadedBy: 'integer' },
  mailchimp_tags: { entityTypes: 'list', isActive: 'boolean', createdAt: 'timestamp' },
  sync_runs: {
    // A number however it is read: as one part of a combined statement MariaDB hands it over as a decimal.
    id: 'integer',
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
    warnings: 'list',
    full: 'boolean',
    cancelled: 'boolean',
  },
  sync_locks: { acquiredAt: 'timestamp', heartbeatAt: 'timestamp' },
  jobs: {
    startedBy: 'integer',
    progressDone: 'integer',
    progressTotal: 'integer',
    attempts: 'integer',
    cancelRequested: 'boolean',
    leaseExpiresAt: 'timestamp',
    runAfter: 'timestamp',
    createdAt: 'timestamp',
    startedAt: 'timestamp',
    finishedAt: 'timestamp',
    updatedAt: 'timestamp',
  },
} satisfies Record<string, ColumnKinds>;
