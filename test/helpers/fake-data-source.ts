import { HttpError } from '@shared/api-error.js';
import type { DataSource } from '@views/data/source.js';

const notFound = () => Promise.reject(new HttpError(404, '{"message":"Not found","code":"not_found"}', 'Not Found'));

/**
 * A DataSource for loader and action tests: every read and write answers 404 like the API does for something
 * that is not there, unless the test gives its own function.
 */
export function fakeDataSource(overrides: Partial<DataSource> = {}): DataSource {
  return {
    session: notFound,
    stats: notFound,
    integrationsOverview: notFound,
    listRecords: notFound,
    getRecord: notFound,
    eventWordpressUrl: notFound,
    contact: notFound,
    contactsOf: notFound,
    paymentsOf: notFound,
    filesOf: notFound,
    users: notFound,
    mySessions: notFound,
    deletedItems: notFound,
    createRecord: notFound,
    updateRecord: notFound,
    deleteRecord: notFound,
    createContact: notFound,
    updateContact: notFound,
    deleteContact: notFound,
    createPayment: notFound,
    updatePayment: notFound,
    deletePayment: notFound,
    deleteFile: notFound,
    ...overrides,
  };
}
