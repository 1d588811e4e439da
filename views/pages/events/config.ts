import { EVENT_FILTERS } from '@shared/schemas/records.js';
import type { RecordConfig } from '@views/components/records/record-config.js';
import { recordConfigOf } from '@views/components/records/config-of.js';

export const eventsConfig: RecordConfig = recordConfigOf('event');

export const EVENT_FILTER_OPTIONS = EVENT_FILTERS.map((value) => ({
  value,
  label: value === 'all' ? 'All events' : value === 'featured' ? 'Featured' : 'Regular',
}));
