import type { RecordConfig } from '@views/components/records/record-config.js';
import { recordConfigOf } from '@views/components/records/config-of.js';

export const professionalsConfig: RecordConfig = recordConfigOf('professional', 'add');

export const PROFESSIONAL_DELETE_QUESTION = 'Are you sure you want to delete this professional?';
