import * as z from 'zod';
import { ImportParamsSchema, SyncParamsSchema } from '@services/jobs/handlers.js';
import { PushOptionsSchema } from '@services/newsletter/service.js';
import { AddMemberSchema } from '@services/integrations/service.js';
import { MarkReadSchema } from '@services/notifications/service.js';
import { UserUpdateSchema } from '@services/users/service.js';
import { RECORD_TYPE_INFO, RECORD_TYPES, SYNC_KINDS } from '@shared/record-types.js';
import type { Role } from '@shared/roles.js';
import { ApiTokenInputSchema, ApiTokenSchema, CreatedApiTokenSchema } from '@shared/schemas/api-tokens.js';
import {
  LoginSchema,
  NameSchema,
  NewUserSchema,
  PasskeyNameSchema,
  PasskeyRegistrationSchema,
  PasskeySignInSchema,
  PasswordChangeSchema,
  SetupSchema,
} from '@shared/schemas/auth.js';
import { BulkDeleteSchema, BulkMailchimpSchema, BulkTagsSchema, UndoDeleteSchema } from '@shared/schemas/bulk.js';
import { ActivityLogPageSchema, TimelinePageSchema } from '@shared/schemas/activity.js';
import { ContactsQuerySchema } from '@shared/schemas/contacts-directory.js';
import { ContactInputSchema } from '@shared/schemas/contacts.js';
import { ImportPreviewSchema } from '@shared/imports/general.js';
import { NoteInputSchema, NoteUpdateSchema } from '@shared/schemas/notes.js';
import { TaskInputSchema, TaskUpdateSchema } from '@shared/schemas/tasks.js';
import {
  DismissSchema,
  DuplicatePageSchema,
  DuplicatesQuerySchema,
  MatchSchema,
  MergePreviewSchema,
  MergeResultSchema,
  MergeSchema,
} from '@shared/schemas/duplicates.js';
import { PaymentInputSchema } from '@shared/schemas/payments.js';
import { type PreferenceName, PreferenceBodySchema, PreferenceSchemas } from '@shared/schemas/preferences.js';
import { ListQuerySchemas, RecordInputSchemas } from '@shared/schemas/records.js';
import { SearchQuerySchema } from '@shared/schemas/search.js';
import {
  ContactOwnerSchema,
  DashboardSchema,
  BackupListingSchema,
  BulkMailchimpResultSchema,
  ConnectionResultSchema,
  DeletedItemSchema,
  EventCalendarSchema,
  IntegrationsOverviewSchema,
  HistoryPageSchema,
  JobViewSchema,
  MailchimpAccountSchema,
  MentionableUserSchema,
  NoteListSchema,
  NoteSchema,
  NotificationListSchema,
  PasskeyViewSchema,
  PublicUserSchema,
  SearchResultsSchema,
  SessionInfoSchema,
  SessionViewSchema,
  SetPasswordLinkSchema,
  SignInEventViewSchema,
  StoredFileSchema,
  SyncResultSchema,
  SyncRunViewSchema,
  TaskPageSchema,
  TaskSchema,
  TwoFactorStatusSchema,
  WebhookDeliverySchema,
  WebhookEndpointDetailSchema,
  WebhookEndpointSchema,
  WpSiteInfoSchema,
} from '@shared/schemas/wire.js';
import type { JsonSchema } from './json-schema.js';

/** A schema given as zod (turned into JSON Schema), as JSON Schema, or as the name of a component (#/components/schemas). */
export type Shape = z.ZodType | { component: string } | { json: JsonSchema };

export interface OperationDoc {
  summary: string;
  tag: string;
  /** Who may call it: anyone (no sign-in), or the least role (a person's session or an API token of that role). */
  access: 'public' | Role;
  /** Only a signed-in person (their sessions, account, preferences; managing API tokens): an API token gets 403. */
  personOnly?: boolean;
  /** The query parameters: a zod object parsed from the query (its input side), or names with what they mean. */
  query?: z.ZodType | Record<string, string>;
  body?: Shape;
  /** The body is multipart/form-data (uploads) rather than JSON. */
  multipart?: boolean;
  answer: { status: number; description: string; schema?: Shape; media?: string };
}

const component = (name: string) => ({ component: name });
const json = (schema: JsonSchema) => ({ json: schema });
const countOf = (name: string) => z.object({ [name]: z.number().int() });
/** PUT /api/security's body and the answer of both: the rule the service checks by hand. */
const RequireTwoFactorSchema = z.object({ requireTwoFactor: z.boolean() });
/** The WebAuthn options the browser passes to navigator.credentials (base64url fields; more members may follow). */
const credentialDescriptors = z.array(
  z.object({ id: z.string(), type: z.literal('public-key'), transports: z.array(z.string()).optional() }),
);
const WebAuthnRequestOptionsSchema = z
  .object({
    challenge: z.string(),
    timeout: z.number().optional(),
    rpId: z.string().optional(),
    allowCredentials: credentialDescriptors.optional(),
    userVerification: z.string().optional(),
  })
  .loose();
const WebAuthnCreationOptionsSchema = z
  .object({
    rp: z.object({ name: z.string(), id: z.string().optional() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    challenge: z.string(),
    pubKeyCredParams: z.array(z.object({ alg: z.number().int(), type: z.literal('public-key') })),
    timeout: z.number().optional(),
    excludeCredentials: credentialDescriptors.optional(),
    authenticatorSelection: z.record(z.string(), z.unknown()).optional(),
    attestation: z.string().optional(),
  })
  .loose();
/**
 * The JSON rows of an import as the screens send them (parsed from the CSV in the browser), streamed and checked row
 * by row on arrival: `data` the rows by column, `lines` each row's line in the file. A CSV file goes to POST /jobs.
 */
const ImportRowsSchema = z.object({ data: z.array(z.record(z.string(), z.unknown())), lines: z.array(z.number().int()).optional() });
const importOutcome = { skipped: z.number().int(), errors: z.array(z.string()) };

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
/** Component names of a record type's answers: `Event` (one record) and `EventItem` (in lists). */
export const recordComponent = (type: string, view: 'item' | 'detail') => `${capital(type)}${view === 'item' ? 'Item' : ''}`;
export const recordListComponent = (type: string) => `${capital(type)}Page`;

const ok = (description: string, schema?: Shape) => ({ status: 200, description, schema });
const created = (description: string, schema?: Shape) => ({ status: 201, description, schema });
const noContent = (description: string) => ({ status: 204, description });

/** Every /api route, keyed `METHOD /path` as the router declares it (the path without /api). */
export function describeOperations(): Map<string, OperationDoc> {
  const ops = new Map<string, OperationDoc>();
  const add = (key: string, doc: OperationDoc) => ops.set(key, doc);

  // Session and first run: open without a session.
  add('POST /login', {
    tag: 'Session',
    access: 'public',
    summary: 'Sign in (starts a session cookie)',
    body: LoginSchema,
    answer: ok('Signed in', z.object({ user: PublicUserSchema })),
  });
  add('POST /logout', { tag: 'Session', access: 'public', summary: 'Sign out', answer: noContent('Signed out') });
  add('GET /me', {
    tag: 'Session',
    access: 'viewer',
    personOnly: true,
    summary: 'The signed-in user',
    answer: ok('The user', z.object({ user: PublicUserSchema })),
  });
  add('GET /session', {
    tag: 'Session',
    access: 'public',
    summary: 'The session as the pages read it (user or null, locale, time zone)',
    answer: ok('The session', SessionInfoSchema),
  });
  add('GET /set-password/:token', {
    tag: 'Session',
    access: 'public',
    summary: 'What a set-password link is for',
    answer: ok('The link', z.object({ email: z.string(), firstName: z.string() })),
  });
  add('POST /set-password/:token', {
    tag: 'Session',
    access: 'public',
    summary: 'Set a password with a one-time link (signs in)',
    body: z.object({ password: z.string() }),
    answer: ok('Signed in', z.object({ user: PublicUserSchema })),
  });
  add('POST /setup', {
    tag: 'Session',
    access: 'public',
    summary: 'Create the first admin (only while there are no users)',
    body: SetupSchema,
    answer: created('The first admin, signed in', z.object({ user: PublicUserSchema })),
  });
  add('GET /openapi.json', {
    tag: 'Documentation',
    access: 'public',
    summary: 'This description (OpenAPI 3.1)',
    answer: ok(
      'The OpenAPI document',
      z
        .object({
          openapi: z.string(),
          info: z.object({ title: z.string(), version: z.string() }).loose(),
          paths: z.record(z.string(), z.unknown()),
          components: z.record(z.string(), z.unknown()),
        })
        .loose(),
    ),
  });

  // Overview.
  add('GET /stats', {
    tag: 'Overview',
    access: 'viewer',
    summary: 'How many records of each type',
    answer: ok('Counts by type', z.record(z.string(), z.number().int())),
  });
  add('GET /dashboard', {
    tag: 'Overview',
    access: 'viewer',
    summary: 'The dashboard in one read',
    answer: ok('The dashboard', DashboardSchema),
  });
  add('GET /calendar/events', {
    tag: 'Overview',
    access: 'viewer',
    summary: 'The events of a month’s calendar',
    query: { month: 'YYYY-MM; the current month by default' },
    answer: ok('The month', EventCalendarSchema),
  });
  add('GET /search', {
    tag: 'Overview',
    access: 'viewer',
    summary: 'Search every record type and contacts',
    query: SearchQuerySchema,
    answer: ok('Results by type', SearchResultsSchema),
  });

  // Records.
  for (const type of RECORD_TYPES) {
    const info = RECORD_TYPE_INFO[type];
    const path = `/${info.segment}`;
    const tag = info.plural;
    add(`GET ${path}`, {
      tag,
      access: 'viewer',
      summary: `List ${info.pluralNoun} (searched, filtered, sorted; paged by cursor)`,
      query: ListQuerySchemas[type],
      answer: ok(`One page of ${info.pluralNoun}`, component(recordListComponent(type))),
    });
    add(`GET ${path}/:id`, {
      tag,
      access: 'viewer',
      summary: `One ${info.noun}`,
      answer: ok(`The ${info.noun}`, component(recordComponent(type, 'detail'))),
    });
    add(`GET ${path}/:id/history`, {
      tag,
      access: 'viewer',
      summary: `The history of a ${info.noun}, newest first`,
      query: { page: 'page number from 1' },
      answer: ok('One page of history', HistoryPageSchema),
    });
    add(`GET ${path}/:id/activity`, {
      tag,
      access: 'viewer',
      summary: `The activity timeline of a ${info.noun}, newest first (docs/decisions/0106)`,
      query: TIMELINE_QUERY,
      answer: ok('One page of the timeline', TimelinePageSchema),
    });
    add(`POST ${path}`, {
      tag,
      access: 'staff',
      summary: `Create a ${info.noun}`,
      body: RecordInputSchemas[type],
      answer: created(`The new ${info.noun}`, component(recordComponent(type, 'detail'))),
    });
    add(`PUT ${path}/:id`, {
      tag,
      access: 'staff',
      summary: `Replace a ${info.noun}'s fields (a field left out is stored empty)`,
      body: RecordInputSchemas[type],
      answer: ok(`The ${info.noun}`, component(recordComponent(type, 'detail'))),
    });
    add(`DELETE ${path}/:id`, {
      tag,
      access: 'staff',
      summary: `Delete a ${info.noun} (kept in Recently deleted)`,
      answer: noContent('Deleted'),
    });
    add(`POST ${path}/bulk-delete`, {
      tag,
      access: 'staff',
      summary: `Delete several ${info.pluralNoun}`,
      body: BulkDeleteSchema,
      answer: ok('How many were deleted', countOf('deleted')),
    });
  }
  add('GET /events/:id/wordpress-url', {
    tag: 'Events',
    access: 'viewer',
    summary: 'A synced event’s public page',
    answer: ok('The address', z.object({ wordpressUrl: z.string() })),
  });
  add('POST /events/bulk-import', {
    tag: 'Imports',
    access: 'staff',
    summary: 'Import events from CSV rows (up to 50 MB)',
    body: ImportRowsSchema,
    answer: ok('The import report', z.object({ ...importOutcome, updated: z.number().int(), created: z.number().int() })),
  });
  add('POST /brands/bulk-import', {
    tag: 'Imports',
    access: 'staff',
    summary: 'Import brands from CSV rows (up to 50 MB)',
    body: ImportRowsSchema,
    answer: ok('The import report', z.object({ ...importOutcome, brandsCreated: z.number().int(), contactsCreated: z.number().int() })),
  });
  add('GET /export/contacts', {
    tag: 'Exports',
    access: 'viewer',
    summary: 'The contacts directory as CSV',
    query: ContactsQuerySchema,
    answer: { ...ok('CSV (UTF-8 with BOM)'), media: 'text/csv' },
  });
  add('GET /export/:segment', {
    tag: 'Exports',
    access: 'viewer',
    summary: 'A record list as CSV (same query as the list)',
    answer: { ...ok('CSV (UTF-8 with BOM)'), media: 'text/csv' },
  });

  // Contacts, payments, files.
  add('GET /contacts', {
    tag: 'Contacts',
    access: 'viewer',
    summary: 'The contacts directory (paged by cursor)',
    query: ContactsQuerySchema,
    answer: ok('One page of contacts', component('DirectoryContactPage')),
  });
  add('GET /contacts/:id', {
    tag: 'Contacts',
    access: 'viewer',
    summary: 'One contact (`?include=owner` adds its owner)',
    query: { include: '`owner` to add the record the contact belongs to' },
    answer: ok('The contact', component('Contact')),
  });
  add('GET /contacts/:entityType/:entityId', {
    tag: 'Contacts',
    access: 'viewer',
    summary: 'The contacts of a record',
    answer: ok('Its contacts', json({ type: 'array', items: { $ref: '#/components/schemas/Contact' } })),
  });
  add('GET /contacts/:entityType/:entityId/owner', {
    tag: 'Contacts',
    access: 'viewer',
    summary: 'A record contacts can belong to, by name',
    answer: ok('The record', ContactOwnerSchema),
  });
  add('GET /contacts/:id/history', {
    tag: 'Contacts',
    access: 'viewer',
    summary: 'The history of a contact',
    query: { page: 'page number from 1' },
    answer: ok('One page of history', HistoryPageSchema),
  });
  add('POST /contacts', {
    tag: 'Contacts',
    access: 'staff',
    summary: 'Add a contact to a record',
    body: ContactInputSchema,
    answer: created('The new contact', component('Contact')),
  });
  add('PUT /contacts/:id', {
    tag: 'Contacts',
    access: 'staff',
    summary: 'Replace a contact',
    body: ContactInputSchema,
    answer: ok('The contact', component('Contact')),
  });
  add('DELETE /contacts/:id', { tag: 'Contacts', access: 'staff', summary: 'Delete a contact', answer: noContent('Deleted') });
  add('POST /contacts/bulk-tags', {
    tag: 'Contacts',
    access: 'staff',
    summary: 'Add and remove tags on several contacts',
    body: BulkTagsSchema,
    answer: ok('How many changed', countOf('updated')),
  });
  add('POST /contacts/bulk-delete', {
    tag: 'Contacts',
    access: 'staff',
    summary: 'Delete several contacts',
    body: BulkDeleteSchema,
    answer: ok('How many were deleted', countOf('deleted')),
  });
  add('POST /contacts/bulk-mailchimp', {
    tag: 'Contacts',
    access: 'staff',
    summary: 'Add several contacts to a Mailchimp audience',
    body: BulkMailchimpSchema,
    answer: ok('What was done', BulkMailchimpResultSchema),
  });
  add('GET /payments', {
    tag: 'Payments',
    access: 'viewer',
    summary: 'Payments, by owner (entityType and entityId)',
    query: { entityType: RECORD_TYPES.join(', '), entityId: 'the record', limit: 'page size (default 200)', offset: 'rows to skip' },
    answer: ok('One page of payments with their count and sum', component('PaymentList')),
  });
  add('GET /payments/:id/history', {
    tag: 'Payments',
    access: 'viewer',
    summary: 'The history of a payment',
    query: { page: 'page number from 1' },
    answer: ok('One page of history', HistoryPageSchema),
  });
  add('POST /payments', {
    tag: 'Payments',
    access: 'staff',
    summary: 'Add a payment to a record',
    body: PaymentInputSchema,
    answer: created('The new payment', component('Payment')),
  });
  add('PUT /payments/:id', {
    tag: 'Payments',
    access: 'staff',
    summary: 'Replace a payment',
    body: PaymentInputSchema,
    answer: ok('The payment', component('Payment')),
  });
  add('DELETE /payments/:id', { tag: 'Payments', access: 'staff', summary: 'Delete a payment', answer: noContent('Deleted') });
  add('GET /files/:entityType/:entityId', {
    tag: 'Files',
    access: 'viewer',
    summary: 'The files of a record',
    answer: ok('Its files', z.array(StoredFileSchema)),
  });
  add('GET /files/:id/history', {
    tag: 'Files',
    access: 'viewer',
    summary: 'The history of a file',
    query: { page: 'page number from 1' },
    answer: ok('One page of history', HistoryPageSchema),
  });
  add('POST /upload', {
    tag: 'Files',
    access: 'staff',
    summary: 'Upload files to a record (multipart: entityType, entityId, files)',
    multipart: true,
    body: json({
      type: 'object',
      properties: {
        entityType: { type: 'string' },
        entityId: { type: 'string' },
        files: { type: 'array', items: { type: 'string', contentEncoding: 'binary' } },
      },
    }),
    answer: created('The stored files', z.object({ files: z.array(StoredFileSchema) })),
  });
  add('GET /uploads/:id', {
    tag: 'Files',
    access: 'viewer',
    summary: 'A stored file’s bytes (Range supported)',
    answer: { ...ok('The file'), media: 'application/octet-stream' },
  });
  add('DELETE /files/:id', { tag: 'Files', access: 'staff', summary: 'Delete a file', answer: noContent('Deleted') });

  // Integrations and jobs.
  add('GET /wordpress/test', {
    tag: 'Integrations',
    access: 'viewer',
    summary: 'Check the WordPress settings',
    answer: ok('The check', ConnectionResultSchema),
  });
  add('GET /wordpress/site-info', {
    tag: 'Integrations',
    access: 'viewer',
    summary: 'The content website’s name and address',
    answer: ok('Site info', WpSiteInfoSchema),
  });
  add('GET /mailchimp/test', {
    tag: 'Integrations',
    access: 'viewer',
    summary: 'Check the Mailchimp API key',
    answer: ok('The account', ConnectionResultSchema.extend({ data: MailchimpAccountSchema.optional() })),
  });
  add('GET /mailchimp/audiences', {
    tag: 'Integrations',
    access: 'viewer',
    summary: 'The Mailchimp audiences',
    answer: ok('Audiences', z.array(z.object({ id: z.string(), name: z.string() }))),
  });
  add('POST /mailchimp/audiences/:audienceId/members', {
    tag: 'Integrations',
    access: 'staff',
    summary: 'Add one member to an audience',
    body: AddMemberSchema,
    answer: ok('The member', ConnectionResultSchema.extend({ outcome: z.enum(['added', 'updated', 'unsubscribed']) })),
  });
  add('GET /integrations/overview', {
    tag: 'Integrations',
    access: 'viewer',
    summary: 'Settings state and the latest sync runs',
    answer: ok('The overview', IntegrationsOverviewSchema),
  });
  add('GET /sync/runs', {
    tag: 'Integrations',
    access: 'viewer',
    summary: 'Recent sync runs',
    query: { kind: SYNC_KINDS.join(', '), limit: 'how many' },
    answer: ok('Runs', z.object({ items: z.array(SyncRunViewSchema) })),
  });
  add('POST /sync/:kind', {
    tag: 'Integrations',
    access: 'staff',
    summary: 'Run a sync and wait for it',
    body: SyncParamsSchema.partial(),
    answer: ok('The finished job', SyncResultSchema),
  });
  add('GET /jobs', {
    tag: 'Jobs',
    access: 'viewer',
    summary: 'Recent background jobs',
    query: { type: 'import, sync or newsletter', state: 'queued, running, succeeded, failed or cancelled' },
    answer: ok('Jobs', z.object({ items: z.array(JobViewSchema) })),
  });
  add('GET /jobs/:id', {
    tag: 'Jobs',
    access: 'viewer',
    summary: 'One job with its progress and result',
    answer: ok('The job', JobViewSchema),
  });
  add('POST /jobs', {
    tag: 'Jobs',
    access: 'staff',
    summary: 'Start a background job (import, sync or newsletter)',
    body: z.object({
      type: z.enum(['import', 'sync', 'newsletter']),
      params: z.union([ImportParamsSchema.partial(), SyncParamsSchema, PushOptionsSchema]),
    }),
    answer: { status: 202, description: 'Queued', schema: z.object({ id: z.number().int() }) },
  });
  // The general import (docs/decisions/0107-general-import.md).
  add('POST /imports', {
    tag: 'Imports',
    access: 'staff',
    summary: 'Import any list or contacts from a CSV or XLSX file (multipart: file, type, mapping, mode, key, dryRun) as a job',
    answer: { status: 202, description: 'The queued job', schema: JobViewSchema },
  });
  add('POST /imports/preview', {
    tag: 'Imports',
    access: 'staff',
    summary: 'What the mapping step shows for a CSV or XLSX file (multipart: file, type, ownerType): header, samples, mappings',
    answer: ok('The preview', ImportPreviewSchema),
  });
  add('GET /imports/:id/report.csv', {
    tag: 'Imports',
    access: 'viewer',
    summary: 'A finished general import’s report: row, outcome, message',
    answer: { ...ok('CSV (UTF-8 with BOM)'), media: 'text/csv' },
  });
  add('POST /jobs/:id/cancel', { tag: 'Jobs', access: 'staff', summary: 'Cancel a job', answer: ok('The job', JobViewSchema) });

  // Two-factor sign-in, sign-in history and self-service reset (docs/decisions/0102, 0103).
  add('POST /password-reset', {
    tag: 'Session',
    access: 'public',
    summary: 'Forgot password: emails a one-time link when the address is known (202 either way)',
    body: z.object({ email: z.string() }),
    answer: { status: 202, description: 'Accepted', schema: z.object({ resetByEmail: z.boolean() }) },
  });
  add('GET /me/sign-ins', {
    tag: 'Account',
    access: 'viewer',
    personOnly: true,
    summary: 'My sign-in history',
    answer: ok('Sign-ins', z.array(SignInEventViewSchema)),
  });
  add('GET /me/two-factor', {
    tag: 'Account',
    access: 'viewer',
    personOnly: true,
    summary: 'My second factors',
    answer: ok('Status', TwoFactorStatusSchema),
  });
  add('POST /me/totp', {
    tag: 'Account',
    access: 'viewer',
    personOnly: true,
    summary: 'Start enrolling an authenticator app',
    answer: ok('The secret', z.object({ secret: z.string(), otpauthUrl: z.string() }).loose()),
  });
  add('POST /me/totp/confirm', {
    tag: 'Account',
    access: 'viewer',
    personOnly: true,
    summary: 'Confirm the authenticator app with a first code',
    body: z.object({ code: z.string() }),
    answer: ok('The recovery codes, shown once', z.object({ recoveryCodes: z.array(z.string()) })),
  });
  add('DELETE /me/totp', {
    tag: 'Account',
    access: 'viewer',
    personOnly: true,
    summary: 'Turn two-factor sign-in off',
    body: z.object({ password: z.string(), code: z.string() }),
    answer: noContent('Turned off'),
  });
  add('GET /users/:id/sign-ins', {
    tag: 'Users',
    access: 'admin',
    summary: "A user's sign-in history",
    answer: ok('Sign-ins', z.array(SignInEventViewSchema)),
  });
  add('POST /users/:id/reset-2fa', {
    tag: 'Users',
    access: 'admin',
    summary: "Reset a user's second factors",
    answer: ok('Done', z.object({ email: z.string(), hadSecondFactor: z.boolean() })),
  });
  add('GET /security', {
    tag: 'Users',
    access: 'admin',
    personOnly: true,
    summary: 'Sign-in security settings',
    answer: ok('Settings', RequireTwoFactorSchema),
  });
  add('PUT /security', {
    tag: 'Users',
    access: 'admin',
    personOnly: true,
    summary: 'Require two-factor sign-in for everyone, or not',
    body: RequireTwoFactorSchema,
    answer: ok('Settings', RequireTwoFactorSchema),
  });

  // Notes, tasks and notifications (docs/decisions/0100, 0101).
  const owner = { entityType: 'the owner: a record type or contact', entityId: "the owner's id" };
  add('GET /notes/mentionable', {
    tag: 'Notes',
    access: 'viewer',
    summary: 'Users a note can mention',
    answer: ok('Users', z.array(MentionableUserSchema)),
  });
  add('GET /notes', {
    tag: 'Notes',
    access: 'viewer',
    summary: "A record's or contact's notes, pinned first",
    query: owner,
    answer: ok('Notes', NoteListSchema),
  });
  add('POST /notes', {
    tag: 'Notes',
    access: 'staff',
    summary: 'Add a note',
    body: NoteInputSchema,
    answer: created('The note', NoteSchema),
  });
  add('PUT /notes/:id', {
    tag: 'Notes',
    access: 'staff',
    summary: 'Edit or pin a note',
    body: NoteUpdateSchema,
    answer: ok('The note', NoteSchema),
  });
  add('DELETE /notes/:id', { tag: 'Notes', access: 'staff', summary: 'Delete a note (to Recently deleted)', answer: noContent('Deleted') });
  add('GET /tasks', {
    tag: 'Tasks',
    access: 'viewer',
    summary: 'Tasks, by assignee, status, due window and owner, paged by cursor',
    query: {
      assignee: 'me or a user id',
      status: 'open, done or all',
      due: 'overdue, today or week',
      entityType: 'the linked record type or contact',
      entityId: "the linked record's id",
      after: 'the cursor of the next page',
      limit: 'page size',
    },
    answer: ok('A page of tasks', TaskPageSchema),
  });
  add('GET /tasks/:id', { tag: 'Tasks', access: 'viewer', summary: 'One task', answer: ok('The task', TaskSchema) });
  add('POST /tasks', {
    tag: 'Tasks',
    access: 'staff',
    summary: 'Add a task',
    body: TaskInputSchema,
    answer: created('The task', TaskSchema),
  });
  add('PUT /tasks/:id', {
    tag: 'Tasks',
    access: 'staff',
    summary: 'Change a task, or mark it done',
    body: TaskUpdateSchema,
    answer: ok('The task', TaskSchema),
  });
  add('DELETE /tasks/:id', { tag: 'Tasks', access: 'staff', summary: 'Delete a task (to Recently deleted)', answer: noContent('Deleted') });
  add('GET /notifications', {
    tag: 'Notifications',
    access: 'viewer',
    personOnly: true,
    summary: 'My notifications, newest first',
    answer: ok('Notifications', NotificationListSchema),
  });
  add('POST /notifications/read', {
    tag: 'Notifications',
    access: 'viewer',
    personOnly: true,
    summary: 'Mark my notifications read',
    body: MarkReadSchema,
    answer: ok('Unread count', countOf('unread')),
  });

  // Webhooks (docs/webhooks.md).
  add('GET /webhooks', {
    tag: 'Webhooks',
    access: 'admin',
    summary: 'The webhook endpoints (never their secrets)',
    answer: ok('Endpoints', z.object({ items: z.array(WebhookEndpointSchema) })),
  });
  add('GET /webhooks/:id', {
    tag: 'Webhooks',
    access: 'admin',
    summary: 'One endpoint with its delivery log',
    query: { limit: 'deliveries to list' },
    answer: ok('The endpoint', WebhookEndpointDetailSchema),
  });
  add('POST /webhooks', {
    tag: 'Webhooks',
    access: 'admin',
    summary: 'Add an endpoint; its signing secret is answered only here',
    body: z.object({ url: z.string(), events: z.array(z.string()) }),
    answer: created('The endpoint', z.object({ id: z.number().int(), url: z.string(), events: z.array(z.string()), secret: z.string() })),
  });
  add('DELETE /webhooks/:id', {
    tag: 'Webhooks',
    access: 'admin',
    summary: 'Delete an endpoint and its delivery log',
    answer: noContent('Deleted'),
  });
  add('POST /webhooks/:id/enable', {
    tag: 'Webhooks',
    access: 'admin',
    summary: 'Enable a disabled endpoint again',
    answer: ok('The endpoint', WebhookEndpointSchema),
  });
  add('POST /webhooks/:id/test', {
    tag: 'Webhooks',
    access: 'admin',
    summary: 'Send a test event',
    answer: { status: 202, description: 'The delivery', schema: WebhookDeliverySchema },
  });
  add('POST /webhooks/:id/deliveries/:deliveryId/replay', {
    tag: 'Webhooks',
    access: 'admin',
    summary: 'Send one delivery again',
    answer: { status: 202, description: 'The delivery', schema: WebhookDeliverySchema },
  });

  // Passkeys (docs/decisions/0104): sign-in, and a person's own passkeys.
  add('POST /login/passkey/options', {
    tag: 'Session',
    access: 'public',
    summary: 'A challenge for signing in with a passkey',
    answer: ok('WebAuthn request options', WebAuthnRequestOptionsSchema),
  });
  add('POST /login/passkey', {
    tag: 'Session',
    access: 'public',
    summary: 'Sign in with a passkey (starts a session cookie)',
    body: PasskeySignInSchema,
    answer: ok('Signed in', z.object({ user: PublicUserSchema })),
  });
  add('GET /me/passkeys', {
    tag: 'Account',
    access: 'viewer',
    personOnly: true,
    summary: 'My passkeys',
    answer: ok('Passkeys', z.array(PasskeyViewSchema)),
  });
  add('POST /me/passkeys/options', {
    tag: 'Account',
    access: 'viewer',
    personOnly: true,
    summary: 'A challenge for adding a passkey',
    answer: ok('WebAuthn creation options', WebAuthnCreationOptionsSchema),
  });
  add('POST /me/passkeys', {
    tag: 'Account',
    access: 'viewer',
    personOnly: true,
    summary: 'Add a passkey',
    body: PasskeyRegistrationSchema,
    answer: created('The passkey', PasskeyViewSchema),
  });
  add('PATCH /me/passkeys/:id', {
    tag: 'Account',
    access: 'viewer',
    personOnly: true,
    summary: 'Rename a passkey',
    body: PasskeyNameSchema,
    answer: ok('The passkey', PasskeyViewSchema),
  });
  add('DELETE /me/passkeys/:id', {
    tag: 'Account',
    access: 'viewer',
    personOnly: true,
    summary: 'Remove a passkey',
    answer: noContent('Removed'),
  });

  // Backups (the Settings → Backups panel).
  add('GET /backups', {
    tag: 'Backups',
    access: 'admin',
    summary: 'The backup archives, newest first',
    answer: ok('The archives', BackupListingSchema),
  });
  add('POST /backups', {
    tag: 'Backups',
    access: 'admin',
    summary: 'Back up now: queues a backup job',
    answer: { status: 202, description: 'Queued', schema: z.object({ id: z.number().int() }) },
  });
  add('GET /backups/:name/download', {
    tag: 'Backups',
    access: 'admin',
    summary: 'Download one archive (streamed)',
    answer: { status: 200, description: 'The archive', media: 'application/gzip' },
  });

  // Recently deleted.
  add('GET /deleted', {
    tag: 'Recently deleted',
    access: 'admin',
    summary: 'What was deleted, newest first',
    answer: ok('Deleted records', z.array(DeletedItemSchema)),
  });
  add('POST /deleted/:id/restore', {
    tag: 'Recently deleted',
    access: 'admin',
    summary: 'Restore a deleted record',
    answer: ok('What was restored', DeletedItemSchema),
  });
  add('POST /deleted/undo', {
    tag: 'Recently deleted',
    access: 'staff',
    summary: 'Undo a delete just made',
    body: UndoDeleteSchema,
    answer: ok('What was restored', countOf('restored')),
  });

  // Possible duplicates and merge (issue 34).
  add('GET /duplicates', {
    tag: 'Duplicates',
    access: 'viewer',
    summary: 'Possible duplicates of one type (contacts or a list), a page of pairs at a time',
    query: DuplicatesQuerySchema,
    answer: ok('Pairs with their score and reasons', DuplicatePageSchema),
  });
  add('GET /duplicates/check', {
    tag: 'Duplicates',
    access: 'viewer',
    summary: "The existing records a new one would duplicate (the add form's notice)",
    query: { type: 'contacts or a list (events, brands, …)', '<field>': "the new record's fields, by name (brandName, email, …)" },
    answer: ok('The matches, best first', z.object({ matches: z.array(MatchSchema) })),
  });
  add('POST /duplicates/dismiss', {
    tag: 'Duplicates',
    access: 'staff',
    summary: 'Mark a pair "not a duplicate" (it leaves the list for good)',
    body: DismissSchema,
    answer: ok('Dismissed', z.object({ dismissed: z.literal(true) })),
  });
  add('GET /merge', {
    tag: 'Duplicates',
    access: 'viewer',
    summary: 'Two records side by side, field by field, with the default choice of each',
    query: { type: 'contacts or a list (events, brands, …)', a: 'the record to keep', b: 'the record to merge into it' },
    answer: ok('The merge preview', MergePreviewSchema),
  });
  add('POST /merge', {
    tag: 'Duplicates',
    access: 'staff',
    summary: 'Merge one record into another (undone by restoring the merged one from Recently deleted)',
    body: MergeSchema,
    answer: ok('What was merged and moved', MergeResultSchema),
  });

  // Users, accounts, preferences, API tokens.
  add('GET /users', { tag: 'Users', access: 'admin', summary: 'Every user', answer: ok('Users', z.array(PublicUserSchema)) });
  add('POST /users', {
    tag: 'Users',
    access: 'admin',
    summary: 'Add a user (answers a one-time set-password link)',
    body: NewUserSchema.omit({ password: true }),
    answer: created('The user and their link', SetPasswordLinkSchema.extend({ user: PublicUserSchema })),
  });
  add('PUT /users/:id', {
    tag: 'Users',
    access: 'admin',
    summary: 'Change a user’s role or active flag',
    body: UserUpdateSchema,
    answer: ok('The user', z.object({ user: PublicUserSchema })),
  });
  add('POST /users/:id/reset-link', {
    tag: 'Users',
    access: 'admin',
    summary: 'Make a new set-password link',
    answer: ok('The link', SetPasswordLinkSchema),
  });
  add('GET /sessions', {
    tag: 'Account',
    access: 'viewer',
    personOnly: true,
    summary: 'My signed-in sessions',
    answer: ok('Sessions', z.array(SessionViewSchema)),
  });
  add('DELETE /sessions/:id', {
    tag: 'Account',
    access: 'viewer',
    personOnly: true,
    summary: 'End one of my sessions',
    answer: noContent('Ended'),
  });
  add('POST /sessions/sign-out-others', {
    tag: 'Account',
    access: 'viewer',
    personOnly: true,
    summary: 'End my other sessions',
    answer: ok('How many ended', countOf('ended')),
  });
  add('PUT /account', {
    tag: 'Account',
    access: 'viewer',
    personOnly: true,
    summary: 'Change my name',
    body: NameSchema,
    answer: ok('Me', z.object({ user: PublicUserSchema })),
  });
  add('POST /account/password', {
    tag: 'Account',
    access: 'viewer',
    personOnly: true,
    summary: 'Change my password',
    body: PasswordChangeSchema,
    answer: noContent('Changed'),
  });
  add('GET /preferences', {
    tag: 'Account',
    access: 'viewer',
    personOnly: true,
    summary: 'My remembered settings',
    answer: ok('Preferences', z.object(PreferenceSchemas)),
  });
  add('PUT /preferences/:name', {
    tag: 'Account',
    access: 'viewer',
    personOnly: true,
    summary: 'Remember one setting',
    body: PreferenceBodySchema,
    answer: ok(
      'The setting',
      z.object({ name: z.enum(Object.keys(PreferenceSchemas) as [PreferenceName, ...PreferenceName[]]), value: z.unknown() }),
    ),
  });
  add('GET /api-tokens', {
    tag: 'API tokens',
    access: 'admin',
    personOnly: true,
    summary: 'Every API token with its last use',
    answer: ok('Tokens', z.array(ApiTokenSchema)),
  });
  add('POST /api-tokens', {
    tag: 'API tokens',
    access: 'admin',
    personOnly: true,
    summary: 'Create an API token (shown only in this answer)',
    body: ApiTokenInputSchema,
    answer: created('The token', CreatedApiTokenSchema),
  });
  add('DELETE /api-tokens/:id', {
    tag: 'API tokens',
    access: 'admin',
    personOnly: true,
    summary: 'Revoke an API token',
    answer: noContent('Revoked'),
  });
  // Activity (issue 33 points 4 and 5; docs/decisions/0106).
  add('GET /contacts/:id/activity', {
    tag: 'Activity',
    access: 'viewer',
    summary: 'The activity timeline of a contact, newest first',
    query: TIMELINE_QUERY,
    answer: ok('One page of the timeline', TimelinePageSchema),
  });
  add('GET /activity', {
    tag: 'Activity',
    access: 'admin',
    summary: 'The activity log: every change, sign-in, export and push, newest first',
    query: { ...LOG_QUERY, after: 'the `next` cursor of the previous page' },
    answer: ok('One page of the log', ActivityLogPageSchema),
  });
  add('GET /activity.csv', {
    tag: 'Activity',
    access: 'admin',
    summary: 'The activity log as CSV (same filters), streamed',
    query: LOG_QUERY,
    answer: { ...ok('CSV (UTF-8 with BOM)'), media: 'text/csv' },
  });
  return ops;
}

const TIMELINE_QUERY = {
  kind: 'comma-separated kinds: note, task, change, payment, file, contact, mailchimp',
  after: 'the `next` cursor of the previous page',
};

const LOG_QUERY = {
  user: 'a user id',
  kind: 'comma-separated kinds: change, note, import, sync, token, sign_in, failed_sign_in, security, export, mailchimp',
  type: 'a record type, or contact, payment, file, user',
  from: 'first day (YYYY-MM-DD, UTC)',
  to: 'last day (YYYY-MM-DD, UTC)',
};
