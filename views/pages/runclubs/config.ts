import { RECORD_API_PATHS, RUN_CLUB_TYPE_FILTERS } from '../../../src/shared/schemas/records.js';
import { enumOptions } from '../../components/records/form-fields.js';
import type { RecordConfig } from '../../components/records/record-config.js';
import { recordMessages } from '../../components/records/messages.js';

export const runclubsConfig: RecordConfig = {
  kind: 'runclub',
  apiPath: RECORD_API_PATHS.runclub,
  listPath: '/runclubs',
  noun: 'run club',
  messages: recordMessages('run club'),
};

export const RUN_CLUB_TYPE_OPTIONS = enumOptions(RUN_CLUB_TYPE_FILTERS, { all: 'All types' });

export const clubTypeLabel = (type: string) => enumOptions([type])[0]?.label ?? type;
