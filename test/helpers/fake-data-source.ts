import { HttpError } from '@shared/api-error.js';
import { DEFAULT_PREFERENCES } from '@shared/schemas/preferences.js';
import { composeRecordPage, type DataSource } from '@views/data/source.js';

const notFound = () => Promise.reject(new HttpError(404, '{"message":"Not found","code":"not_found"}', 'Not Found'));

/**
 * A DataSource for loader and action tests: every read and write answers 404 like the API does for something
 * that is not there (preferences answer the defaults), unless the test gives its own function.
 */
export function fakeDataSource(overrides: Partial<DataSource> = {}): DataSource {
  const ds: DataSource = {
    session: notFound,
    stats: notFound,
    dashboard: notFound,
    eventCalendar: notFound,
    integrationsOverview: notFound,
    listRecords: notFound,
    getRecord: notFound,
    // As in the browser: the record page is the separate reads, so tests give those.
    recordPage: (kind, id) => composeRecordPage(ds, kind, id),
    eventWordpressUrl: notFound,
    contact: notFound,
    contactOwner: notFound,
    contactsOf: notFound,
    paymentsOf: notFound,
    filesOf: notFound,
    // Every user has preferences: the defaults until they choose.
    preferences: () => Promise.resolve(DEFAULT_PREFERENCES),
    deviceClass: () => 'desktop',
    setPreference: notFound,
    contactsDirectory: notFound,
    jobs: notFound,
    tasks: notFound,
    users: notFound,
    mySessions: notFound,
    myTwoFactor: notFound,
    mySignIns: notFound,
    myPasskeys: notFound,
    securitySettings: notFound,
    deletedItems: notFound,
    duplicates: notFound,
    mergePreview: notFound,
    backups: notFound,
    apiTokens: notFound,
    createApiToken: notFound,
    revokeApiToken: notFound,
    webhooks: notFound,
    activityLog: notFound,
    createRecord: notFound,
    updateRecord: notFound,
    deleteRecord: notFound,
    bulkDeleteRecords: notFound,
    bulkDeleteContacts: notFound,
    bulkTagContacts: notFound,
    addContactsToAudience: notFound,
    mailchimpAudiences: notFound,
    createContact: notFound,
    updateContact: notFound,
    deleteContact: notFound,
    createPayment: notFound,
    updatePayment: notFound,
    deletePayment: notFound,
    deleteFile: notFound,
    ...overrides,
  };
  return ds;
}
