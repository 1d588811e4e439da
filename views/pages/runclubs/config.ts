import { RUN_CLUB_TYPE_FILTERS } from '@shared/list-options.js';
import { RUN_CLUB_TYPE_FILTER_LABELS } from '@shared/labels.js';
import { enumOptions } from '@views/components/records/form-fields.js';
import type { RecordConfig } from '@views/components/records/record-config.js';
import { recordConfigOf } from '@views/components/records/config-of.js';

export const runclubsConfig: RecordConfig = recordConfigOf('runclub');

export const RUN_CLUB_TYPE_OPTIONS = enumOptions(RUN_CLUB_TYPE_FILTERS, RUN_CLUB_TYPE_FILTER_LABELS);
