import type { ListName } from '@shared/schemas/preferences.js';
import { dataSource } from '@views/data/source.js';
import { deleteRecordIntent, failed, intentAction, sameLocation, type IntentHandler } from './actions.js';
import type { RecordConfig } from './record-config.js';

/** Remembers how the user sees a list (layout, columns), then shows the same list again. */
function preferenceIntent(list: ListName, setting: 'view' | 'columns'): IntentHandler {
  return async ({ request, context }, form) => {
    const value = setting === 'view' ? form.get('view') : form.getAll('column');
    try {
      await dataSource(context).setPreference(`${list}.${setting}`, value);
    } catch (error) {
      return failed(context, 'Could not save this view', error);
    }
    return sameLocation(request);
  };
}

/** The action of a list page: its layout and columns, and (where the list offers it) deleting a record. */
export function listAction(list: ListName, config?: RecordConfig) {
  return intentAction({
    view: preferenceIntent(list, 'view'),
    columns: preferenceIntent(list, 'columns'),
    ...(config ? { delete: deleteRecordIntent(config, 'list') } : {}),
  });
}
