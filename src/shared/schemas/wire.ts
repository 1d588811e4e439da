import * as z from 'zod';
import { RECORD_TYPE_INFO, RECORD_TYPES, SYNC_KINDS, type StatsKey } from '../record-types.js';
import { ROLES } from '../roles.js';
import { SIGN_IN_EVENT_KINDS } from './auth.js';
import { THEME_CHOICES } from '../theme.js';
import { JOB_STATES, JOB_TYPES } from './jobs.js';
import { NOTE_OWNER_TYPES } from './notes.js';
import { TRASH_TYPES } from './trash.js';

/**
 * Zod schemas of answers whose wire types are written as TypeScript interfaces (the interfaces stay the source the
 * code uses; test/api/openapi.test.ts checks each schema against its type, so the two cannot drift). The OpenAPI
 * description (GET /api/openapi.json) is generated from these and from the input schemas the routes parse with.
 * A record's, contact's or payment's answer is its input schema's fields plus what the server keeps (AuditSchema),
 * so only what the server adds is written here.
 */

const timestamp = z.iso.datetime();
const money = z.string().regex(/^-?\d+\.\d{2}$/);

/** The JSON body of every error answer from /api (ApiErrorBody). */
export const ApiErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

/** What the server keeps on every record, contact and payment (Audit). */
export const AuditSchema = z.object({
  id: z.number().int(),
  createdAt: timestamp,
  updatedAt: timestamp,
  createdBy: z.number().int().nullable(),
});

/** When the sync last wrote a synced record (Synced). */
const SyncedSchema = z.object({ wordpressLastSync: timestamp.nullable(), wordpressUnpublishedAt: timestamp.nullable() });

const EventDistanceSchema = z.object({
  id: z.number().int(),
  eventId: z.number().int(),
  distanceKm: z.string().nullable(),
  distanceStartDate: z.string().nullable(),
  distanceStartTime: z.string().nullable(),
  entryFee: z.string().nullable(),
  participantsCount: z.number().int().nullable(),
  gpxFilePath: z.string().nullable(),
  stravaLink: z.string().nullable(),
  elevationTitle: z.string().nullable(),
  medianTime: z.string().nullable(),
  lastTime: z.string().nullable(),
  prizes: z.array(z.string()),
  prizeDescription: z.string().nullable(),
  recommendTitle: z.string().nullable(),
  productUrl: z.string().nullable(),
  productImagePath: z.string().nullable(),
  createdAt: timestamp,
});

const RunClubScheduleSchema = z.object({
  id: z.number().int(),
  clubId: z.number().int(),
  title: z.string().nullable(),
  dayOfWeek: z.string().nullable(),
  specificDate: z.string().nullable(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  isRecurring: z.boolean(),
  description: z.string().nullable(),
  runStyle: z.string().nullable(),
  cost: z.string().nullable(),
  locationAddress: z.string().nullable(),
  locationLat: z.string().nullable(),
  locationLng: z.string().nullable(),
  createdAt: timestamp,
});

/**
 * What each record type's answer adds to its input fields and AuditSchema: `item` in lists (and after a write),
 * `detail` the one-record view (GET /api/{type}/{id}), which for events and run clubs adds their rows.
 */
export const RecordAnswerExtras = {
  event: {
    item: SyncedSchema.extend({
      wordpressEventId: z.number().int().nullable(),
      galleryImages: z.array(z.string()),
      totalAdvertisingSpend: money,
    }),
    detail: z.object({ distances: z.array(EventDistanceSchema) }),
  },
  professional: {
    item: SyncedSchema.extend({
      wordpressProfessionalId: z.number().int().nullable(),
      professionTypeOther: z.string().nullable(),
      totalPayments: money,
    }),
    detail: z.object({}),
  },
  runclub: {
    item: SyncedSchema.extend({ wordpressClubId: z.number().int().nullable(), clubTypeOther: z.array(z.string()), totalPayments: money }),
    detail: z.object({ schedules: z.array(RunClubScheduleSchema) }),
  },
  brand: { item: z.object({ totalAdvertisingSpend: money }), detail: z.object({}) },
  media: { item: z.object({}), detail: z.object({}) },
  influencer: { item: z.object({}), detail: z.object({}) },
} as const;

/** The paging of every list: the page, the count of matches and the cursors around it (ListPage). */
export const listPageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), next: z.string().nullable(), prev: z.string().nullable() });

/** A signed-in user as the browser and API callers see them (PublicUser). */
export const PublicUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(ROLES),
  isActive: z.boolean(),
  createdAt: timestamp,
  lastLogin: timestamp.nullable(),
});

export const StoredFileSchema = z.object({
  id: z.number().int(),
  entityType: z.enum(RECORD_TYPES),
  entityId: z.number().int(),
  fileName: z.string(),
  originalName: z.string(),
  fileType: z.string().nullable(),
  fileSize: z.number().int().nullable(),
  fileCategory: z.string().nullable(),
  description: z.string().nullable(),
  uploadedAt: timestamp,
  uploadedBy: z.number().int().nullable(),
  url: z.string(),
});

/** A contact's owner by name (ContactOwner). */
export const ContactOwnerSchema = z.object({ type: z.string(), id: z.number().int(), name: z.string() });

/** One page of the history of a record, contact, payment or file (HistoryPage). */
export const HistoryPageSchema = z.object({
  items: z.array(
    z.object({
      id: z.number().int(),
      at: timestamp,
      action: z.enum(['create', 'update', 'delete']),
      actor: z.object({ kind: z.enum(['user', 'cli', 'import', 'sync', 'token']), label: z.string(), runId: z.string().nullable() }),
      changes: z.record(z.string(), z.unknown()),
    }),
  ),
  total: z.number().int(),
});

export const JobViewSchema = z.object({
  id: z.number().int(),
  type: z.enum(JOB_TYPES),
  state: z.enum(JOB_STATES),
  params: z.record(z.string(), z.unknown()),
  trigger: z.string(),
  startedBy: z.string().nullable(),
  progress: z.object({ done: z.number().int(), total: z.number().int().nullable(), phase: z.string().nullable() }),
  result: z.record(z.string(), z.unknown()).nullable(),
  error: z.object({ status: z.number().int(), message: z.string(), code: z.string(), body: z.record(z.string(), z.unknown()) }).nullable(),
  attempts: z.number().int(),
  cancelRequested: z.boolean(),
  createdAt: timestamp,
  startedAt: timestamp.nullable(),
  finishedAt: timestamp.nullable(),
  updatedAt: timestamp,
});

/** One entry of Recently deleted (DeletedItem). */
export const DeletedItemSchema = z.object({
  id: z.number().int(),
  type: z.enum(TRASH_TYPES),
  entityId: z.number().int(),
  name: z.string(),
  deletedBy: z.string(),
  deletedAt: timestamp,
  holds: z.object({ contacts: z.number().int(), payments: z.number().int(), files: z.number().int() }),
});

export const SessionViewSchema = z.object({
  id: z.string(),
  browser: z.string(),
  os: z.string(),
  ip: z.string(),
  signedInAt: timestamp,
  lastSeenAt: timestamp,
  current: z.boolean(),
});

export const SearchResultsSchema = z.object({
  groups: z.array(
    z.object({
      type: z.string(),
      total: z.number().int(),
      items: z.array(
        z.object({ id: z.number().int(), title: z.string(), subtitle: z.string(), date: z.string().optional(), url: z.string() }),
      ),
    }),
  ),
});

/** One note (Note). */
export const NoteSchema = z.object({
  id: z.number().int(),
  entityType: z.enum(NOTE_OWNER_TYPES),
  entityId: z.number().int(),
  body: z.string(),
  pinned: z.boolean(),
  createdBy: z.number().int().nullable(),
  authorName: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
  editedAt: timestamp.nullable(),
  mentions: z.array(z.number().int()),
});

export const NoteListSchema = z.object({ items: z.array(NoteSchema) });

export const MentionableUserSchema = z.object({ id: z.number().int(), name: z.string(), email: z.string() });

/** One task (Task). */
export const TaskSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  notes: z.string().nullable(),
  dueDate: z.string(),
  dueTime: z.string().nullable(),
  assigneeId: z.number().int(),
  assigneeName: z.string(),
  entityType: z.enum(NOTE_OWNER_TYPES).nullable(),
  entityId: z.number().int().nullable(),
  entityName: z.string().nullable(),
  done: z.boolean(),
  doneAt: timestamp.nullable(),
  doneBy: z.number().int().nullable(),
  doneByName: z.string().nullable(),
  createdBy: z.number().int().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  overdue: z.boolean(),
});

export const TaskPageSchema = z.object({ items: z.array(TaskSchema), next: z.string().nullable(), today: z.string() });

/** The bell's notifications (NotificationList). */
export const NotificationListSchema = z.object({
  items: z.array(
    z.object({
      id: z.number().int(),
      kind: z.enum(['mention', 'assignment', 'due', 'alert']),
      text: z.string(),
      url: z.string(),
      createdAt: timestamp,
      read: z.boolean(),
    }),
  ),
  unread: z.number().int(),
});

const calendarEvent = {
  id: z.number().int(),
  eventName: z.string(),
  eventStartDate: z.string(),
  eventEndDate: z.string().nullable(),
  featuredRace: z.boolean(),
  locationState: z.string().nullable(),
};

/** A month's calendar grid (EventCalendar). */
export const EventCalendarSchema = z.object({
  month: z.string(),
  today: z.string(),
  events: z.array(z.object(calendarEvent)),
  truncated: z.boolean(),
});

const STATS_KEYS = RECORD_TYPES.map((type) => RECORD_TYPE_INFO[type].statsKey) as [StatsKey, ...StatsKey[]];

/** The count of each record type (Stats). */
export const StatsSchema = z.record(z.enum(STATS_KEYS), z.number().int());

/** What a sync run did, as shown (SyncRunView). */
export const SyncRunViewSchema = z.object({
  id: z.number().int(),
  kind: z.enum(SYNC_KINDS),
  trigger: z.string(),
  startedBy: z.string().nullable(),
  status: z.enum(['succeeded', 'failed', 'cancelled', 'unfinished']),
  startedAt: timestamp,
  finishedAt: timestamp.nullable(),
  full: z.boolean(),
  created: z.number().int(),
  updated: z.number().int(),
  failed: z.number().int(),
  durationMs: z.number().int().nullable(),
  message: z.string().nullable(),
  errors: z.array(z.string()),
  warnings: z.array(z.string()),
  notices: z.array(z.string()),
});

const amountTotal = { count: z.number().int(), total: money };

/** The dashboard in one read (Dashboard). */
export const DashboardSchema = z.object({
  today: z.string(),
  stats: StatsSchema,
  upcomingEvents: z.object({
    until: z.string(),
    total: z.number().int(),
    next: z.object({ id: z.number().int(), eventName: z.string(), eventStartDate: z.string() }).nullable(),
    items: z.array(
      z.object({
        id: calendarEvent.id,
        eventName: calendarEvent.eventName,
        eventStartDate: calendarEvent.eventStartDate,
        eventEndDate: calendarEvent.eventEndDate,
        locationState: calendarEvent.locationState,
        featuredRace: calendarEvent.featuredRace,
      }),
    ),
  }),
  awaitingPayment: z.object({
    ...amountTotal,
    overdue: z.object(amountTotal),
    oldest: z.array(
      z.object({
        id: z.number().int(),
        description: z.string(),
        amount: money,
        paymentDate: z.string().nullable(),
        invoiceStatus: z.string(),
        owner: z.object({ type: z.enum(RECORD_TYPES), id: z.number().int(), name: z.string().nullable() }),
      }),
    ),
  }),
  advertisingSpend: z.array(z.object({ month: z.string(), total: money })),
  lastSyncs: z.record(z.enum(SYNC_KINDS), SyncRunViewSchema.nullable()),
  recentlyChanged: z.array(z.object({ type: z.enum(RECORD_TYPES), id: z.number().int(), name: z.string(), updatedAt: timestamp })),
});

/** The session as the pages read it (SessionInfo). */
export const SessionInfoSchema = z.object({
  user: PublicUserSchema.nullable(),
  needsSetup: z.boolean(),
  locale: z.string(),
  timeZone: z.string(),
  theme: z.enum(THEME_CHOICES),
  env: z.object({ publicSiteUrl: z.string().nullable(), wordpressAdminUrl: z.string().nullable(), passkeys: z.boolean().optional() }),
  attention: z.object({ tasksDue: z.number().int(), unread: z.number().int() }).optional(),
});

export const WebhookEndpointSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  disabledReason: z.string().nullable(),
  failingSince: timestamp.nullable(),
  createdBy: z.string().nullable(),
  createdAt: timestamp,
});

export const WebhookDeliverySchema = z.object({
  id: z.number().int(),
  messageId: z.string(),
  eventType: z.string(),
  state: z.enum(['pending', 'sending', 'delivered', 'failed']),
  attempts: z.number().int(),
  responseStatus: z.number().int().nullable(),
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int().nullable(),
  nextAttemptAt: timestamp.nullable(),
  createdAt: timestamp,
  deliveredAt: timestamp.nullable(),
});

export const WebhookEndpointDetailSchema = z.object({ endpoint: WebhookEndpointSchema, deliveries: z.array(WebhookDeliverySchema) });

/** The archives in BACKUP_DIR (BackupListing). */
export const BackupListingSchema = z.object({
  items: z.array(z.object({ name: z.string(), bytes: z.number().int(), createdAt: timestamp })),
  schedule: z.string().nullable(),
  keep: z.number().int(),
});

/** One entry of the sign-in history (SignInEventView). */
export const SignInEventViewSchema = z.object({
  id: z.number().int(),
  occurredAt: timestamp,
  kind: z.enum(SIGN_IN_EVENT_KINDS),
  succeeded: z.boolean(),
  detail: z.string().nullable(),
  ip: z.string(),
  browser: z.string(),
  os: z.string(),
  by: z.string().nullable(),
});

export const TwoFactorStatusSchema = z.object({
  totpEnabled: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  required: z.boolean(),
  setupRequired: z.boolean(),
});

export const PasskeyViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
});

/** A one-time set-password link (SetPasswordLink). */
export const SetPasswordLinkSchema = z.object({ url: z.string(), expiresAt: timestamp, emailed: z.boolean() });

/** What a sync did (SyncResult), the answer of POST /api/sync/{kind}. */
export const SyncResultSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  kind: z.enum(SYNC_KINDS),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  failed: z.number().int(),
  errors: z.array(z.string()),
  warnings: z.array(z.string()).optional(),
  unpublished: z.array(z.string()),
  full: z.boolean(),
  dryRun: z.boolean(),
  durationMs: z.number().int(),
  runId: z.number().int().nullable(),
});

export const IntegrationsOverviewSchema = z.object({
  wordpress: z.object({ configured: z.boolean(), url: z.string().nullable(), credentials: z.boolean() }),
  mailchimp: z.object({ configured: z.boolean() }),
  latestRuns: z.record(z.enum(SYNC_KINDS), SyncRunViewSchema.nullable()),
});

export const WpSiteInfoSchema = z.object({ name: z.string(), url: z.string(), description: z.string() });

/** A connection test's outcome (a failure is a result, not an error). */
export const ConnectionResultSchema = z.object({ success: z.boolean(), message: z.string() });

export const MailchimpAccountSchema = z.object({
  account_name: z.string(),
  email: z.string(),
  industry: z.string(),
  total_subscribers: z.number().int(),
});

/** What adding contacts to an audience did (BulkMailchimpResult). */
export const BulkMailchimpResultSchema = z.object({
  added: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  failed: z.array(z.object({ id: z.number().int(), email: z.string(), message: z.string() })),
});
