import { replace } from 'react-router';
import { RECORD_TYPE_INFO, type RecordType } from '@shared/record-types.js';
import { listNameOf, viewPreferenceOf, type ListName } from '@shared/list-options.js';
import { dataSource } from '@views/data/source.js';
import { announce, announceDelete, deleteRecordIntent, failed, intentAction, sameLocation, type IntentHandler } from './actions.js';
import type { RecordConfig } from './record-config.js';

/** The calendar is a view of its own URL (`?view=calendar`, its month kept); Cards and Table are the list's URL. */
function viewLocation(request: Request, view: FormDataEntryValue | null) {
  const url = new URL(request.url);
  const month = url.searchParams.get('month');
  if (view === 'calendar') return replace(`${url.pathname}?view=calendar${month ? `&month=${encodeURIComponent(month)}` : ''}`);
  if (url.searchParams.get('view') === 'calendar') return replace(url.pathname);
  return sameLocation(request);
}

/** Remembers how the user sees a list (layout, columns), then shows the list again in that view. */
export function preferenceIntent(list: ListName, setting: 'view' | 'columns'): IntentHandler {
  return async ({ request, context }, form) => {
    const value = setting === 'view' ? form.get('view') : form.getAll('column');
    const ds = dataSource(context);
    try {
      // A layout is kept for the device class it was chosen on; the columns are the table's wherever it shows.
      await ds.setPreference(setting === 'view' ? viewPreferenceOf(list, ds.deviceClass()) : `${list}.columns`, value);
    } catch (error) {
      return failed(context, 'Could not save this view', error);
    }
    return setting === 'view' ? viewLocation(request, form.get('view')) : sameLocation(request);
  };
}

/** The selection a bulk form posts: its `ids` field, comma separated. */
export function postedIds(form: FormData): number[] {
  return String(form.get('ids') ?? '')
    .split(',')
    .filter(Boolean)
    .map(Number);
}

/**
 * Deletes the selected rows (the form's `ids`) in one call through `remove`, announces `deleted(n)` (with Undo
 * when `undoKind` names the record type: records wait in Recently deleted), then shows the list again; a refusal
 * is toasted under `failedTitle`.
 */
export function bulkDeleteIntent(
  remove: (context: unknown, ids: number[]) => Promise<{ deleted: number }>,
  words: { deleted(count: number): string; failedTitle: string },
  undoKind?: RecordType,
): IntentHandler {
  return async ({ request, context }, form) => {
    try {
      const ids = postedIds(form);
      const { deleted } = await remove(context, ids);
      if (undoKind) announceDelete(context, words.deleted(deleted), undoKind, ids);
      else announce(context, words.deleted(deleted));
    } catch (error) {
      return failed(context, words.failedTitle, error);
    }
    return sameLocation(request);
  };
}

/** The action of a list page: its layout and columns, deleting one record and deleting a selection. */
export function listAction(config: RecordConfig) {
  const list = listNameOf(config.kind);
  return intentAction({
    view: preferenceIntent(list, 'view'),
    columns: preferenceIntent(list, 'columns'),
    delete: deleteRecordIntent(config, 'list'),
    'bulk-delete': bulkDeleteIntent(
      (context, ids) => dataSource(context).bulkDeleteRecords(config.kind, ids),
      {
        deleted: (count) => (count === 1 ? config.messages.deleted : `${count} ${RECORD_TYPE_INFO[config.kind].pluralNoun} deleted`),
        failedTitle: `Could not delete the selected ${RECORD_TYPE_INFO[config.kind].pluralNoun}`,
      },
      config.kind,
    ),
  });
}
