import type { RecordType } from '../record-types.js';

/** One entry of Recently deleted (`GET /api/deleted`, /settings/deleted). */
export interface DeletedItem {
  id: number;
  type: RecordType;
  /** The record's own id, which a restore gives back. */
  entityId: number;
  name: string;
  deletedBy: string;
  deletedAt: string;
  holds: { contacts: number; payments: number; files: number };
}
