import { RECORD_TYPE_INFO, type RecordType } from '@shared/record-types.js';
import { recordMessages } from './messages.js';
import type { RecordConfig } from './record-config.js';

/** A type's screen config, all from the shared vocabulary; professionals are "added" (spec point 8), the rest "created". */
export function recordConfigOf(type: RecordType, createVerb: 'create' | 'add' = 'create'): RecordConfig {
  const { apiPath, path, noun } = RECORD_TYPE_INFO[type];
  return { kind: type, apiPath, listPath: path, noun, messages: recordMessages(noun, createVerb) };
}
