import type { Knex } from 'knex';
import * as initialSchema from './20261121000000_initial_schema.js';
import * as recordSearchAndCounts from './20261121100000_record_search_and_counts.js';
import * as contactsLowerEmailIndex from './20261121300000_contacts_lower_email_index.js';
import * as importLocks from './20261121300001_import_locks.js';
import * as syncLocksAndNotices from './20261121400000_sync_locks_and_notices.js';
import * as contactsEmailOwnerIndex from './20261121500000_contacts_email_owner_index.js';
import * as derivedDataVersions from './20261122000000_derived_data_versions.js';
import * as contactsSortIndexes from './20261124120200_contacts_sort_indexes.js';
import * as contactsEmailSortIndex from './20261125210000_contacts_email_sort_index.js';
import * as packedSearchPostings from './20261126090000_packed_search_postings.js';
import * as dashboardPaymentIndexes from './20261124150000_dashboard_payment_indexes.js';
import * as dashboardPaymentTotals from './20261125180000_dashboard_payment_totals.js';
import * as deletedItems from './20261124130300_deleted_items.js';
import * as history from './20261124130200_history.js';
import * as jobs from './20261124140000_jobs.js';
import * as listSortIndexes from './20261124120100_list_sort_indexes.js';
import * as rolesSessionsThrottle from './20261124130000_roles_sessions_throttle.js';
import * as runTrackTypeSlugs from './20261128130000_run_track_type_slugs.js';
import * as setPasswordLinks from './20261124130100_set_password_links.js';
import * as syncRunsCancelled from './20261125190000_sync_runs_cancelled.js';
import * as userPreferences from './20261124120000_user_preferences.js';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/**
 * Migrations are listed here, in order, rather than discovered on disk, so the bundled server and CLI and the
 * TypeScript tests all run the same code. Append new ones; never edit one that has landed. A migration imports
 * only `knex` and `./helpers.js`, never live code, and never fills derived data (src/db/migrate.ts does that).
 */
const migrations: Array<[name: string, migration: Migration]> = [
  ['20261121000000_initial_schema', initialSchema],
  ['20261121100000_record_search_and_counts', recordSearchAndCounts],
  ['20261121300000_contacts_lower_email_index', contactsLowerEmailIndex],
  ['20261121300001_import_locks', importLocks],
  ['20261121400000_sync_locks_and_notices', syncLocksAndNotices],
  ['20261121500000_contacts_email_owner_index', contactsEmailOwnerIndex],
  ['20261122000000_derived_data_versions', derivedDataVersions],
  ['20261124120000_user_preferences', userPreferences],
  ['20261124120100_list_sort_indexes', listSortIndexes],
  ['20261124120200_contacts_sort_indexes', contactsSortIndexes],
  ['20261124130000_roles_sessions_throttle', rolesSessionsThrottle],
  ['20261124130100_set_password_links', setPasswordLinks],
  ['20261124130200_history', history],
  ['20261124130300_deleted_items', deletedItems],
  ['20261124140000_jobs', jobs],
  ['20261124150000_dashboard_payment_indexes', dashboardPaymentIndexes],
  ['20261125180000_dashboard_payment_totals', dashboardPaymentTotals],
  ['20261125190000_sync_runs_cancelled', syncRunsCancelled],
  ['20261125210000_contacts_email_sort_index', contactsEmailSortIndex],
  ['20261126090000_packed_search_postings', packedSearchPostings],
  ['20261128130000_run_track_type_slugs', runTrackTypeSlugs],
];

export const migrationSource: Knex.MigrationSource<[string, Migration]> = {
  getMigrations: async () => migrations,
  getMigrationName: ([name]) => name,
  getMigration: async ([, migration]) => migration,
};
