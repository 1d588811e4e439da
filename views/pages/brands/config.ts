import { RECORD_API_PATHS } from '../../../src/shared/schemas/records.js';
import type { RecordConfig } from '../../components/records/record-config.js';
import { recordMessages } from '../../components/records/messages.js';

export const brandsConfig: RecordConfig = {
  kind: 'brand',
  apiPath: RECORD_API_PATHS.brand,
  listPath: '/brands',
  noun: 'brand',
  messages: recordMessages('brand'),
};
