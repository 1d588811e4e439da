import { EVENT_FILTERS } from '@shared/list-options.js';
import { EVENT_FILTER_LABELS } from '@shared/labels.js';
import { enumOptions } from '@views/components/records/form-fields.js';
import type { RecordConfig } from '@views/components/records/record-config.js';
import { recordConfigOf } from '@views/components/records/config-of.js';

export const eventsConfig: RecordConfig = recordConfigOf('event');

export const EVENT_FILTER_OPTIONS = enumOptions(EVENT_FILTERS, EVENT_FILTER_LABELS);
