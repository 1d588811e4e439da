import type { RecordConfig } from '../../components/records/record-config.js';
import { recordConfigOf } from '../../components/records/config-of.js';

export const mediaConfig: RecordConfig = recordConfigOf('media');
