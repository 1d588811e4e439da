import { RECORD_API_PATHS } from '../../../src/shared/schemas/records.js';
import { enumOptions } from '../../components/records/form-fields.js';
import type { RecordConfig } from '../../components/records/record-config.js';
import { recordMessages } from '../../components/records/messages.js';

export const professionalsConfig: RecordConfig = {
  kind: 'professional',
  apiPath: RECORD_API_PATHS.professional,
  listPath: '/professionals',
  noun: 'professional',
  messages: recordMessages('professional', 'add'),
};

export const PROFESSIONAL_DELETE_QUESTION = 'Are you sure you want to delete this professional?';

/** 'massage-therapist' reads 'Massage therapist'. */
export const professionTypeLabel = (type: string | null) => (type ? (enumOptions([type])[0]?.label ?? type) : null);
