import { enumOptions } from '@views/components/records/form-fields.js';
import type { RecordConfig } from '@views/components/records/record-config.js';
import { recordConfigOf } from '@views/components/records/config-of.js';

export const professionalsConfig: RecordConfig = recordConfigOf('professional', 'add');

export const PROFESSIONAL_DELETE_QUESTION = 'Are you sure you want to delete this professional?';

/** 'massage-therapist' reads 'Massage therapist'. */
export const professionTypeLabel = (type: string | null) => (type ? (enumOptions([type])[0]?.label ?? type) : null);
