import { data, redirect, replace, type ActionFunctionArgs } from 'react-router';
import { issuesOf, messageOf, statusOf } from '../../../src/shared/api-error.js';
import { firstErrorPerField, type FieldErrors } from '../../../src/shared/field-errors.js';
import { gatedAction, isServerContext, dataSource } from '../../data/source.js';
import { toast } from '../ui/toast.js';
import { failureToast } from './delete-dialog.js';
import { allFields, readForm, type FormSection } from './form-fields.js';
import { parseRecordId } from './loaders.js';
import { detailPath, type RecordConfig } from './record-config.js';

/**
 * Record writes as react-router actions (docs/decisions/0004-ssr-data-flow.md). A form posts to its own page URL:
 * in the browser the router runs the action, which calls /api through the browser DataSource and raises the
 * spec's toast; without JavaScript the browser posts the page itself, and the server's static handler runs the
 * same action against the services. Either way a success redirects and the loaders read afresh.
 */

/** What a refused write hands back to its form. */
export interface WriteFailure {
  /** The spec's failure text, and the server's own message when it sent one ('' when none). */
  title: string;
  message: string;
  /** Each field's first message, shown under the field. */
  errors: FieldErrors;
  /** True when the browser showed the failure as a toast; otherwise (the server ran the action) the form says it. */
  toasted: boolean;
}

/** A refused write: its status, the field errors and, in the browser, the spec's failure toast. */
function failed(context: unknown, title: string, error: unknown) {
  const onServer = isServerContext(context);
  // An error without a status is not a refusal but a fault: on the server it is the 500 page (and logged).
  if (onServer && statusOf(error) === undefined) throw error;
  if (!onServer) failureToast(title, error);
  const failure: WriteFailure = { title, message: messageOf(error, ''), errors: firstErrorPerField(issuesOf(error) ?? []), toasted: !onServer };
  return data(failure, { status: statusOf(error) ?? 500 });
}

/** The success toast exists only in the browser; a page posted without JavaScript simply shows the result. */
function announce(context: unknown, title: string) {
  if (!isServerContext(context)) toast({ title });
}

/** The add page (no :id) creates, the edit page (:id) replaces every form field; both go to the detail page. */
export function recordFormAction(config: RecordConfig, sections: readonly FormSection[]) {
  const fields = allFields(sections);
  return gatedAction(async ({ request, params, context }: ActionFunctionArgs) => {
    const body = readForm(await request.formData(), fields);
    const ds = dataSource(context);
    const editing = params.id !== undefined;
    try {
      const saved = editing ? await ds.updateRecord(config.kind, parseRecordId(params.id), body) : await ds.createRecord(config.kind, body);
      announce(context, editing ? config.messages.updated : config.messages.created);
      return redirect(detailPath(config, saved.id));
    } catch (error) {
      return failed(context, editing ? config.messages.updateFailed : config.messages.createFailed, error);
    }
  });
}

/**
 * The form fields of a record's delete: on a list page they name the record, on its detail page the URL does.
 * Only a post that says it was confirmed deletes; the dialog adds that, and without JavaScript the action first
 * answers with the question (see ConfirmDeleteButton), whose own Delete button adds it.
 */
export const deleteFields = (id: number, confirmed = false) => ({ intent: 'delete', id: String(id), ...(confirmed ? { confirmed: 'yes' } : {}) });

/** What an unconfirmed delete hands back: the record whose delete still needs the user's yes. */
export interface DeleteConfirmation {
  confirmDelete: number;
}

/**
 * Delete from the detail page (the record of the URL; then the list) or from the list (the record the form
 * names; then the same list again, replacing the history entry, so search and page stay).
 */
export function deleteRecordAction(config: RecordConfig, from: 'detail' | 'list') {
  return gatedAction(async ({ request, params, context }: ActionFunctionArgs) => {
    const form = await request.formData();
    if (form.get('intent') !== 'delete') throw data('Unknown request', { status: 400 });
    const idText = from === 'detail' ? params.id : form.get('id');
    // One click never deletes: a post without the confirmation (a page posted before or without JavaScript) only
    // asks the spec's question, and the page shows it with its own Delete button.
    if (form.get('confirmed') !== 'yes') {
      const asked: DeleteConfirmation = { confirmDelete: parseRecordId(typeof form.get('id') === 'string' ? (form.get('id') as string) : undefined) };
      return asked;
    }
    try {
      await dataSource(context).deleteRecord(config.kind, parseRecordId(typeof idText === 'string' ? idText : undefined));
      announce(context, config.messages.deleted);
    } catch (error) {
      return failed(context, config.messages.deleteFailed, error);
    }
    if (from === 'detail') return redirect(config.listPath);
    const url = new URL(request.url);
    return replace(url.pathname + url.search);
  });
}
