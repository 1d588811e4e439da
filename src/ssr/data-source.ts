import type { Request } from 'express';
import { sessionInfo } from '@api/core/auth.js';
import { integrationsOverview } from '@api/integrations/index.js';
import { actorOfUser, type Actor } from '@services/context.js';
import { createContact, deleteContact, listContacts, updateContact } from '@services/contacts/service.js';
import { unauthorized } from '@services/errors.js';
import { deleteFile, listFiles } from '@services/files/service.js';
import { createPayment, deletePayment, listPayments, updatePayment } from '@services/payments/service.js';
import {
  bulkDeleteRecords,
  createRecord,
  deleteRecord,
  getRecord,
  listRecords,
  updateRecord,
  wordpressUrlOf,
} from '@services/records/service.js';
import { getPreferences, preferencesOf, setPreference } from '@services/preferences/service.js';
import { getContactOwner, getContactWithOwner, listDirectory } from '@services/contacts/directory.js';
import { bulkAddToAudience, bulkDeleteContacts, bulkTagContacts } from '@services/contacts/bulk.js';
import { listAudiences } from '@services/integrations/service.js';
import { getStats } from '@services/stats/service.js';
import { getDashboard } from '@services/dashboard/service.js';
import { eventCalendar } from '@services/calendar/service.js';
import { localeOf, themeOf, timeZoneOf } from '@shared/request-locale.js';
import { getRecordPage } from '@services/attachments/record-page.js';
import { listMyPasskeys } from '@services/auth/passkeys.js';
import { twoFactorStatus } from '@services/auth/second-factor.js';
import { securitySettings } from '@services/auth/security-settings.js';
import { listMySessions } from '@services/auth/sessions.js';
import { listMySignIns } from '@services/auth/sign-in-events.js';
import { listUsers } from '@services/users/service.js';
import { createApiToken, listApiTokens, revokeApiToken } from '@services/api-tokens/service.js';
import { getWebhook, listWebhooks } from '@services/webhooks/service.js';
import { getActivityLog } from '@services/activity/log.js';
import { listDeleted } from '@services/trash/service.js';
import { listDuplicates } from '@services/duplicates/service.js';
import { previewMerge } from '@services/duplicates/merge.js';
import { listBackups } from '@services/backup/service.js';
import { listJobs } from '@services/jobs/service.js';
import { listTasks, readTaskQuery } from '@services/tasks/service.js';
import type { PublicUser } from '@shared/schemas/auth.js';
import { deviceClassOf } from '@shared/device.js';
import type { DataSource } from '@views/data/source.js';

/**
 * The in-process DataSource: each read and write calls its service directly with this request's context and
 * user, the same calls the /api routes make, without an HTTP hop or a path to match.
 */
export function serverDataSource(req: Request): DataSource {
  // Pages gate their loaders (gated()), so a signed-out request never gets here; this is the last word anyway.
  const user = (): PublicUser => {
    if (!req.user) throw unauthorized();
    return req.user;
  };
  const ctx = () => {
    user();
    return req.ctx;
  };
  const actor = (): Actor => actorOfUser(user());
  return {
    session: () => sessionInfo(req, { localeOf, timeZoneOf, themeOf }),
    stats: () => getStats(ctx()),
    dashboard: () => getDashboard(ctx(), timeZoneOf(req)),
    eventCalendar: (month) => eventCalendar(ctx(), month, timeZoneOf(req)),
    integrationsOverview: () => integrationsOverview(ctx()),
    listRecords: (kind, query) => listRecords(ctx(), kind, query),
    getRecord: (kind, id) => getRecord(ctx(), kind, String(id)),
    recordPage: (kind, id) => getRecordPage(ctx(), kind, id),
    eventWordpressUrl: async (event) => wordpressUrlOf(ctx(), event.wordpressEventId),
    contact: (id) => getContactWithOwner(ctx(), id),
    contactOwner: (ownerType, ownerId) => getContactOwner(ctx(), ownerType, ownerId),
    contactsOf: (ownerType, ownerId) => listContacts(ctx(), ownerType, ownerId),
    paymentsOf: (ownerType, ownerId) => listPayments(ctx(), { entityType: ownerType, entityId: ownerId }),
    filesOf: (ownerType, ownerId) => listFiles(ctx(), ownerType, ownerId),
    preferences: async () => (req.storedPreferences && req.user ? preferencesOf(req.storedPreferences) : getPreferences(ctx(), user().id)),
    deviceClass: () => deviceClassOf(req.get('cookie'), req.get('user-agent')),
    contactsDirectory: (params) => listDirectory(ctx(), params),
    jobs: (params) => listJobs(ctx(), params),
    tasks: (params) => listTasks(ctx(), actor(), readTaskQuery(new URLSearchParams(params))),
    setPreference: (name, value) => {
      req.storedPreferences = undefined;
      return setPreference(ctx(), user().id, name, { value });
    },
    users: () => listUsers(ctx(), actor()),
    mySessions: () => listMySessions(ctx(), user().id, req.sessionId!),
    myTwoFactor: () => twoFactorStatus(ctx(), user().id, req.sessionId!),
    mySignIns: () => listMySignIns(ctx(), user().id),
    myPasskeys: () => listMyPasskeys(ctx(), user().id),
    securitySettings: () => securitySettings(ctx(), actor()),
    deletedItems: () => listDeleted(ctx(), actor()),
    duplicates: (params) => listDuplicates(ctx(), params),
    mergePreview: (params) => previewMerge(ctx(), params),
    backups: () => listBackups(ctx(), actor()),
    apiTokens: () => listApiTokens(ctx(), actor()),
    createApiToken: (input) => createApiToken(ctx(), actor(), input),
    revokeApiToken: (id) => revokeApiToken(ctx(), actor(), id),
    webhooks: async (selected) => {
      const [list, detail] = await Promise.all([
        listWebhooks(ctx(), actor()),
        selected === null ? null : getWebhook(ctx(), actor(), selected),
      ]);
      return { items: list.items, selected: detail };
    },
    activityLog: (params) => getActivityLog(ctx(), actor(), new URLSearchParams(params)),
    createRecord: (kind, input) => createRecord(ctx(), actor(), kind, input),
    updateRecord: (kind, id, input) => updateRecord(ctx(), actor(), kind, String(id), input),
    deleteRecord: (kind, id) => deleteRecord(ctx(), actor(), kind, String(id)),
    bulkDeleteRecords: (kind, ids) => bulkDeleteRecords(ctx(), actor(), kind, { ids }),
    bulkDeleteContacts: (ids) => bulkDeleteContacts(ctx(), actor(), { ids }),
    bulkTagContacts: (ids, change) => bulkTagContacts(ctx(), actor(), { ids, ...change }),
    addContactsToAudience: (ids, audienceId) => bulkAddToAudience(ctx(), actor(), { ids, audienceId }),
    mailchimpAudiences: () => listAudiences(ctx()),
    createContact: (input) => createContact(ctx(), actor(), input),
    updateContact: (id, input) => updateContact(ctx(), actor(), id, input),
    deleteContact: (id) => deleteContact(ctx(), actor(), id),
    createPayment: (input) => createPayment(ctx(), actor(), input),
    updatePayment: (id, input) => updatePayment(ctx(), actor(), id, input),
    deletePayment: (id) => deletePayment(ctx(), actor(), id),
    deleteFile: (id) => deleteFile(ctx(), actor(), id),
  };
}
