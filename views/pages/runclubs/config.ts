import { RUN_CLUB_TYPE_FILTERS } from '@shared/schemas/records.js';
import { enumOptions } from '@views/components/records/form-fields.js';
import type { RecordConfig } from '@views/components/records/record-config.js';
import { recordConfigOf } from '@views/components/records/config-of.js';

export const runclubsConfig: RecordConfig = recordConfigOf('runclub');

export const RUN_CLUB_TYPE_OPTIONS = enumOptions(RUN_CLUB_TYPE_FILTERS, { all: 'All types' });

export const clubTypeLabel = (type: string) => enumOptions([type])[0]?.label ?? type;
