import type { RecordMessages } from './messages.js';
import { type RecordType } from '@shared/record-types.js';

/** What the shared record screens need to know about one record type. */
export interface RecordConfig {
  kind: RecordType;
  /** '/api/brands' */
  apiPath: string;
  /** '/brands': the list page, and the base of '/brands/{id}' and '/brands/{id}/edit'. */
  listPath: string;
  /** Lower case as it reads mid-sentence: 'brand', 'media outlet', 'run club'. */
  noun: string;
  messages: RecordMessages;
}

export const detailPath = (kind: RecordConfig, id: number) => `${kind.listPath}/${id}`;
export const editPath = (kind: RecordConfig, id: number) => `${kind.listPath}/${id}/edit`;
