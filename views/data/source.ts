import { data, redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { HttpError, messageOf, statusOf } from '@shared/api-error.js';
import { RECORD_TYPE_INFO, type ContactOwnerType, type RecordType } from '@shared/record-types.js';
import type { ListPage, ListQuery, RecordDetail, RecordItem, Stats, WordpressUrl } from '@shared/schemas/records.js';
import type { PasskeyView, PublicUser, SessionView, SignInEventView, TwoFactorStatus } from '@shared/schemas/auth.js';
import type { SessionInfo } from '@shared/session.js';
import type { Dashboard } from '@shared/schemas/dashboard.js';
import type { EventCalendar } from '@shared/schemas/calendar.js';
import type { DeletedItem } from '@shared/schemas/trash.js';
import type { DuplicatePage, MergePreview } from '@shared/schemas/duplicates.js';
import type { BackupListing } from '@shared/schemas/backups.js';
import type { Attachments, Contact, Payment, PaymentList, StoredFile } from '@shared/schemas/attachments.js';
import type { IntegrationsOverview, MailchimpAudience } from '@shared/schemas/integrations.js';
import type { BulkMailchimpResult } from '@shared/schemas/bulk.js';
import type { PreferenceName, Preferences } from '@shared/schemas/preferences.js';
import type { DeviceClass } from '@shared/device.js';
import type { ContactOwner, DirectoryContact } from '@shared/schemas/contacts-directory.js';
import type { JobView } from '@shared/schemas/jobs.js';
import type { ApiToken, CreatedApiToken } from '@shared/schemas/api-tokens.js';
import type { TaskPage } from '@shared/schemas/tasks.js';
import type { ActivityPage, LogKind } from '@shared/activity.js';
import type { WebhookEndpoint, WebhookEndpointDetail, WebhooksPage } from '@shared/schemas/webhooks.js';
import { apiRequest } from './http.js';

/**
 * What route loaders and actions read and write through: one typed function per need, so both implementations
 * are checked by the compiler against the same presenter types. On the server (src/ssr/data-source.ts) each one
 * calls its service in-process with the request's context and user; in the browser each one fetches its /api
 * endpoint. Both give the same presenter output, so hydration never sees a different shape.
 */
export interface DataSource {
  session(): Promise<SessionInfo>;
  stats(): Promise<Stats>;
  dashboard(): Promise<Dashboard>;
  /** The season calendar of a month ('YYYY-MM'; null: the visitor's current month). */
  eventCalendar(month: string | null): Promise<EventCalendar>;
  integrationsOverview(): Promise<IntegrationsOverview>;
  listRecords<K extends RecordType>(kind: K, query: ListQuery<K>): Promise<ListPage<RecordItem<K>>>;
  getRecord<K extends RecordType>(kind: K, id: number): Promise<RecordDetail<K>>;
  /** A record with its contacts, payments and files (its detail page); the record's 404 when it does not exist. */
  recordPage<K extends RecordType>(kind: K, id: number): Promise<RecordPage<K>>;
  /** A synced event's public page, for an event already read (the server builds it from the row, no second read). */
  eventWordpressUrl(event: { id: number; wordpressEventId: number | null }): Promise<WordpressUrl>;
  /** A contact with its owner by name (the contact pages name the owner). */
  contact(id: number): Promise<DirectoryContact>;
  /** A record that contacts belong to, by name; the record's 404 when it does not exist. */
  contactOwner(ownerType: ContactOwnerType, ownerId: number): Promise<ContactOwner>;
  contactsOf(ownerType: ContactOwnerType, ownerId: number): Promise<Contact[]>;
  paymentsOf(ownerType: RecordType, ownerId: number): Promise<PaymentList>;
  filesOf(ownerType: RecordType, ownerId: number): Promise<StoredFile[]>;
  /** The signed-in user's remembered settings (list views and columns, theme). */
  preferences(): Promise<Preferences>;
  /** Whether this is a phone or a desktop, which keeps a list's layout of its own (src/shared/device.ts). */
  deviceClass(): DeviceClass;
  /** The contacts directory: the API's query parameters as they are (the service parses them). */
  contactsDirectory(params: Record<string, string>): Promise<ListPage<DirectoryContact>>;
  setPreference(name: PreferenceName, value: unknown): Promise<unknown>;
  /** The Jobs page: recent jobs, the API's query parameters as they are (type, state; the service checks them). */
  jobs(params: Record<string, string>): Promise<{ items: JobView[] }>;
  /** My tasks and the tasks cards: GET /api/tasks's query parameters as they are (the service checks them). */
  tasks(params: Record<string, string>): Promise<TaskPage>;
  /** /settings/users (admins). */
  users(): Promise<PublicUser[]>;
  /** /settings/account: my signed-in sessions. */
  mySessions(): Promise<SessionView[]>;
  /** /settings/account: my second factors and whether the site requires one. */
  myTwoFactor(): Promise<TwoFactorStatus>;
  /** /settings/account: my sign-in history, newest first. */
  mySignIns(): Promise<SignInEventView[]>;
  /** /settings/account: my passkeys. */
  myPasskeys(): Promise<PasskeyView[]>;
  /** /settings/users (admins): the site-wide security settings. */
  securitySettings(): Promise<{ requireTwoFactor: boolean }>;
  /** /settings/deleted (admins). */
  deletedItems(): Promise<DeletedItem[]>;
  /** /duplicates?type=: possible duplicates, the API's query parameters as they are (type, cursor). */
  duplicates(params: Record<string, string>): Promise<DuplicatePage>;
  /** /duplicates/merge?type=&a=&b=: both records field by field. */
  mergePreview(params: Record<string, string>): Promise<MergePreview>;
  /** /settings/backups (admins). */
  backups(): Promise<BackupListing>;
  /** /settings/api-tokens (admins): the tokens, a new one (shown once), a revocation. */
  apiTokens(): Promise<ApiToken[]>;
  createApiToken(input: unknown): Promise<CreatedApiToken>;
  revokeApiToken(id: number): Promise<void>;
  /** /settings/webhooks (admins): the endpoints, with the delivery log of the one selected. */
  webhooks(selected: number | null): Promise<WebhooksPage>;
  /** /settings/activity (admins): a page of the activity log, filtered as the URL says (docs/decisions/0106). */
  activityLog(params: Record<string, string>): Promise<ActivityPage<LogKind>>;
  /** Writes take the form's body as it is: the service parses it with the shared schema. */
  createRecord<K extends RecordType>(kind: K, input: unknown): Promise<RecordDetail<K>>;
  updateRecord<K extends RecordType>(kind: K, id: number, input: unknown): Promise<RecordDetail<K>>;
  deleteRecord(kind: RecordType, id: number): Promise<void>;
  bulkDeleteRecords(kind: RecordType, ids: readonly number[]): Promise<{ deleted: number }>;
  /** The contacts directory's bulk actions. */
  bulkDeleteContacts(ids: readonly number[]): Promise<{ deleted: number }>;
  bulkTagContacts(ids: readonly number[], change: { add: string; remove: string }): Promise<{ updated: number }>;
  addContactsToAudience(ids: readonly number[], audienceId: string): Promise<BulkMailchimpResult>;
  /** The Mailchimp audiences a selection of contacts can be added to. */
  mailchimpAudiences(): Promise<MailchimpAudience[]>;
  createContact(input: unknown): Promise<Contact>;
  updateContact(id: number, input: unknown): Promise<Contact>;
  deleteContact(id: number): Promise<void>;
  createPayment(input: unknown): Promise<Payment>;
  updatePayment(id: number, input: unknown): Promise<Payment>;
  deletePayment(id: number): Promise<void>;
  deleteFile(id: number): Promise<void>;
}

export interface RecordPage<K extends RecordType> {
  record: RecordDetail<K>;
  attachments: Attachments;
}

/** An owner's contacts (none for influencers: they carry their own email and phone), payments and files, in parallel. */
export async function loadAttachments(ds: DataSource, ownerType: RecordType, ownerId: number): Promise<Attachments> {
  const [contacts, payments, files] = await Promise.all([
    ownerType === 'influencer' ? Promise.resolve<Contact[]>([]) : ds.contactsOf(ownerType, ownerId),
    ds.paymentsOf(ownerType, ownerId),
    ds.filesOf(ownerType, ownerId),
  ]);
  return { contacts, payments: payments.items, paymentsTotal: payments.totalAmount, files };
}

/**
 * A record page from the separate reads, all started at once (one round trip in the browser). What hangs off a
 * missing record is not wanted, so an attachment read's failure only matters when the record exists.
 */
export async function composeRecordPage<K extends RecordType>(ds: DataSource, kind: K, id: number): Promise<RecordPage<K>> {
  const pendingAttachments = loadAttachments(ds, kind, id).then(
    (attachments) => ({ attachments }),
    (error: unknown) => ({ error }),
  );
  const record = await ds.getRecord(kind, id);
  const loaded = await pendingAttachments;
  if ('error' in loaded) throw loaded.error;
  return { record, attachments: loaded.attachments };
}

export interface ServerLoaderContext {
  dataSource: DataSource;
  signedIn: boolean;
}

/** Route loaders and actions get the server's context on the server; in the browser they get none. */
export function isServerContext(context: unknown): context is ServerLoaderContext {
  return typeof context === 'object' && context !== null && 'dataSource' in context;
}

/** A browser read; the answer's type is the endpoint's presenter type, which the API serves unchanged. */
async function read<T>(path: string): Promise<T> {
  try {
    return await apiRequest<T>('GET', path);
  } catch (error) {
    // The session ended while the page was open: reload, and the server shows the sign-in screen at this URL.
    if (error instanceof HttpError && error.status === 401) throw redirectDocument(window.location.pathname + window.location.search);
    throw error;
  }
}

const recordPath = (kind: RecordType, id: number) => `${RECORD_TYPE_INFO[kind].apiPath}/${id}`;

const browserDataSource: DataSource = {
  session: () => apiRequest<SessionInfo>('GET', '/api/session'),
  stats: () => read('/api/stats'),
  dashboard: () => read('/api/dashboard'),
  eventCalendar: (month) => read(month ? `/api/calendar/events?month=${encodeURIComponent(month)}` : '/api/calendar/events'),
  integrationsOverview: () => read('/api/integrations/overview'),
  listRecords: async (kind, query) => {
    const { listApiSearch } = await import('@shared/list-query.js');
    return read(`${RECORD_TYPE_INFO[kind].apiPath}?${listApiSearch(kind, query).toString()}`);
  },
  getRecord: (kind, id) => read(recordPath(kind, id)),
  recordPage: (kind, id) => composeRecordPage(browserDataSource, kind, id),
  eventWordpressUrl: (event) => read(`${recordPath('event', event.id)}/wordpress-url`),
  contact: (id) => read(`/api/contacts/${id}?include=owner`),
  contactOwner: (ownerType, ownerId) => read(`/api/contacts/${ownerType}/${ownerId}/owner`),
  contactsOf: (ownerType, ownerId) => read(`/api/contacts/${ownerType}/${ownerId}`),
  paymentsOf: (ownerType, ownerId) => read(`/api/payments?${new URLSearchParams({ entityType: ownerType, entityId: String(ownerId) }).toString()}`),
  filesOf: (ownerType, ownerId) => read(`/api/files/${ownerType}/${ownerId}`),
  preferences: () => read('/api/preferences'),
  // What this browser reported to the server (views/hydrate.tsx), so both sides keep the same layout.
  deviceClass: () => (/(?:^|;\s*)device=phone/.test(document.cookie) ? 'phone' : 'desktop'),
  contactsDirectory: (params) => read(`/api/contacts?${new URLSearchParams(params).toString()}`),
  jobs: (params) => read(`/api/jobs?${new URLSearchParams(params).toString()}`),
  tasks: (params) => read(`/api/tasks?${new URLSearchParams(params).toString()}`),
  setPreference: (name, value) => apiRequest('PUT', `/api/preferences/${encodeURIComponent(name)}`, { value }),
  users: () => read('/api/users'),
  mySessions: () => read('/api/sessions'),
  myTwoFactor: () => read('/api/me/two-factor'),
  mySignIns: () => read('/api/me/sign-ins'),
  myPasskeys: () => read('/api/me/passkeys'),
  securitySettings: () => read('/api/security'),
  deletedItems: () => read('/api/deleted'),
  duplicates: (params) => read(`/api/duplicates?${new URLSearchParams(params).toString()}`),
  mergePreview: (params) => read(`/api/merge?${new URLSearchParams(params).toString()}`),
  backups: () => read('/api/backups'),
  apiTokens: () => read('/api/api-tokens'),
  createApiToken: (input) => apiRequest('POST', '/api/api-tokens', input),
  revokeApiToken: (id) => apiRequest('DELETE', `/api/api-tokens/${id}`),
  webhooks: async (selected) => {
    const [list, detail] = await Promise.all([
      read<{ items: WebhookEndpoint[] }>('/api/webhooks'),
      selected === null ? null : read<WebhookEndpointDetail>(`/api/webhooks/${selected}`),
    ]);
    return { items: list.items, selected: detail };
  },
  activityLog: (params) => read(`/api/activity?${new URLSearchParams(params).toString()}`),
  createRecord: (kind, input) => apiRequest('POST', RECORD_TYPE_INFO[kind].apiPath, input),
  updateRecord: (kind, id, input) => apiRequest('PUT', recordPath(kind, id), input),
  deleteRecord: (kind, id) => apiRequest('DELETE', recordPath(kind, id)),
  bulkDeleteRecords: (kind, ids) => apiRequest('POST', `${RECORD_TYPE_INFO[kind].apiPath}/bulk-delete`, { ids }),
  bulkDeleteContacts: (ids) => apiRequest('POST', '/api/contacts/bulk-delete', { ids }),
  bulkTagContacts: (ids, change) => apiRequest('POST', '/api/contacts/bulk-tags', { ids, ...change }),
  addContactsToAudience: (ids, audienceId) => apiRequest('POST', '/api/contacts/bulk-mailchimp', { ids, audienceId }),
  mailchimpAudiences: () => read('/api/mailchimp/audiences'),
  createContact: (input) => apiRequest('POST', '/api/contacts', input),
  updateContact: (id, input) => apiRequest('PUT', `/api/contacts/${id}`, input),
  deleteContact: (id) => apiRequest('DELETE', `/api/contacts/${id}`),
  createPayment: (input) => apiRequest('POST', '/api/payments', input),
  updatePayment: (id, input) => apiRequest('PUT', `/api/payments/${id}`, input),
  deletePayment: (id) => apiRequest('DELETE', `/api/payments/${id}`),
  deleteFile: (id) => apiRequest('DELETE', `/api/files/${id}`),
};

export function dataSource(context: unknown): DataSource {
  return isServerContext(context) ? context.dataSource : browserDataSource;
}

/**
 * Wraps a page loader behind the access gate. Signed out, the server sends the sign-in page instead of the app
 * (src/ssr/render.tsx) and runs no page loader; one run without a user all the same reads nothing on the server.
 */
export function gated<T>(loader: (args: LoaderFunctionArgs) => Promise<T>) {
  return async (args: LoaderFunctionArgs): Promise<T> => {
    if (isServerContext(args.context) && !args.context.signedIn) return null as T;
    try {
      return await loader(args);
    } catch (error) {
      // A read the API refused as the caller's fault (a 4xx) is that status on the page too, with the API's
      // message, never the 500 page.
      const status = statusOf(error);
      if (status !== undefined && status >= 400 && status < 500) throw data(messageOf(error, 'The page could not be loaded'), { status });
      throw error;
    }
  };
}

/**
 * Wraps a page action behind the access gate: a signed-out post (the server answers it with the sign-in page and
 * runs no action) is refused before it reads the form. The server's DataSource refuses a write without a user as well.
 */
export function gatedAction<T>(action: (args: ActionFunctionArgs) => Promise<T>) {
  return async (args: ActionFunctionArgs): Promise<T> => {
    if (isServerContext(args.context) && !args.context.signedIn) throw data('Not signed in', { status: 401 });
    return action(args);
  };
}

/**
 * Page data whose subject does not exist: the page still renders its not-found view, but the answer says 404, as
 * the API's does. react-router unwraps the value on the server and in the browser, so the page sees only `value`.
 */
export function notFoundWhen<T>(missing: boolean, value: T): T {
  return missing ? (data(value, { status: 404 }) as unknown as T) : value;
}

/** "/events?q=x" keeps only the params that are set, so URLs stay short and stable. */
export function withQuery(path: string, params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
