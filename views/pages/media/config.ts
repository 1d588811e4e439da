import { RECORD_API_PATHS } from '../../../src/shared/schemas/records.js';
import type { RecordConfig } from '../../components/records/record-config.js';
import { recordMessages } from '../../components/records/messages.js';

export const mediaConfig: RecordConfig = {
  kind: 'media',
  apiPath: RECORD_API_PATHS.media,
  listPath: '/media',
  noun: 'media outlet',
  messages: recordMessages('media outlet'),
};
