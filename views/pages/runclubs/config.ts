import { RUN_CLUB_TYPE_FILTERS } from '../../../src/shared/schemas/records.js';
import { enumOptions } from '../../components/records/form-fields.js';
import type { RecordConfig } from '../../components/records/record-config.js';
import { recordConfigOf } from '../../components/records/config-of.js';

export const runclubsConfig: RecordConfig = recordConfigOf('runclub');

export const RUN_CLUB_TYPE_OPTIONS = enumOptions(RUN_CLUB_TYPE_FILTERS, { all: 'All types' });

export const clubTypeLabel = (type: string) => enumOptions([type])[0]?.label ?? type;
