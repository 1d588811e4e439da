import { EVENT_FILTERS, RECORD_API_PATHS } from '../../../src/shared/schemas/records.js';
import type { RecordConfig } from '../../components/records/record-config.js';
import { recordMessages } from '../../components/records/messages.js';

export const eventsConfig: RecordConfig = {
  kind: 'event',
  apiPath: RECORD_API_PATHS.event,
  listPath: '/events',
  noun: 'event',
  messages: recordMessages('event'),
};

export const EVENT_FILTER_OPTIONS = EVENT_FILTERS.map((value) => ({ value, label: value === 'all' ? 'All events' : value === 'featured' ? 'Featured' : 'Regular' }));
