import { replace } from 'react-router';
import { RECORD_TYPE_INFO } from '@shared/record-types.js';
import { listNameOf, type ListName } from '@shared/schemas/preferences.js';
import { dataSource } from '@views/data/source.js';
import { announce, deleteRecordIntent, failed, intentAction, sameLocation, type IntentHandler } from './actions.js';
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
    try {
      await dataSource(context).setPreference(`${list}.${setting}`, value);
    } catch (error) {
      return failed(context, 'Could not save this view', error);
    }
    return setting === 'view' ? viewLocation(request, form.get('view')) : sameLocation(request);
  };
}

/** Deletes the selected records (the form's `ids`, comma separated) in one call, then shows the list again. */
function bulkDeleteIntent(config: RecordConfig): IntentHandler {
  return async ({ request, context }, form) => {
    const ids = String(form.get('ids') ?? '')
      .split(',')
      .filter(Boolean)
      .map(Number);
    const { pluralNoun } = RECORD_TYPE_INFO[config.kind];
    try {
      const { deleted } = await dataSource(context).bulkDeleteRecords(config.kind, ids);
      announce(context, deleted === 1 ? config.messages.deleted : `${deleted} ${pluralNoun} deleted`);
    } catch (error) {
      return failed(context, `Could not delete the selected ${pluralNoun}`, error);
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
    'bulk-delete': bulkDeleteIntent(config),
  });
}
