import { RECORD_TYPE_INFO, type RecordType } from '@shared/record-types.js';
import { apiRequest } from '@views/data/http.js';
import { toast } from '../ui/toast.js';
import { failureToast } from './delete-dialog.js';

/** Brings back records just deleted (POST /api/deleted/undo: they wait in Recently deleted) and says so. */
export async function undoDelete(kind: RecordType, ids: number[]): Promise<void> {
  const info = RECORD_TYPE_INFO[kind];
  try {
    await apiRequest('POST', '/api/deleted/undo', { type: kind, ids });
    toast({ title: ids.length === 1 ? `${info.singular} restored` : `${ids.length} ${info.pluralNoun} restored` });
  } catch (error) {
    failureToast('Could not undo the delete', error);
  }
}
