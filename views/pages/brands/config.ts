import type { RecordConfig } from '@views/components/records/record-config.js';
import { recordConfigOf } from '@views/components/records/config-of.js';

export const brandsConfig: RecordConfig = recordConfigOf('brand');
