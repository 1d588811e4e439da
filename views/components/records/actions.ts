import { data, redirect, replace, type ActionFunctionArgs } from 'react-router';
import { isEditConflict, issuesOf, messageOf, statusOf } from '@shared/api-error.js';
import { firstErrorPerField, type FieldErrors } from '@shared/field-errors.js';
import type { RecordType } from '@shared/record-types.js';
import { gatedAction, isServerContext, dataSource } from '@views/data/source.js';
import { toast } from '../ui/toast.js';
import { failureToast } from './delete-dialog.js';
import { allFields, readForm, type FormSection } from './form-fields.js';
import { parseRecordId } from './loaders.js';
import { detailPath, type RecordConfig } from './record-config.js';
import type { DeleteConfirmation } from './delete-fields.js';

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
  /** Set when someone else saved first: the form keeps what was typed and offers Reload or Save anyway. */
  conflict?: EditConflict;
}

/** A save refused because the row changed after the form loaded it (issue 13, "No silent lost updates"). */
interface EditConflict {
  /** The server's message, naming who changed it and when. */
  message: string;
  /**
   * The row's current version: a form carrying it saves again deliberately over the other change ('' when the
   * current row cannot be read singly, as a payment: the save then carries no version and overwrites).
   */
  version: string;
  /** What the user had typed, so a page posted without JavaScript shows it again. */
  values: Record<string, unknown>;
}

/** The version an edit form was loaded from (its hidden `version` field); undefined when it sent none. */
export function formVersion(form: FormData): string | undefined {
  const version = form.get('version');
  return typeof version === 'string' && version !== '' ? version : undefined;
}

/**
 * The answer to an edit conflict: no toast (the form itself shows the message with its two choices, in the
 * browser and without JavaScript alike), the typed values and the version that overwrites.
 */
export function conflicted(title: string, error: unknown, current: { updatedAt: string } | null, values: Record<string, unknown>) {
  const failure: WriteFailure = {
    title,
    message: messageOf(error, ''),
    errors: {},
    toasted: false,
    conflict: { message: messageOf(error, ''), version: current?.updatedAt ?? '', values },
  };
  return data(failure, { status: 409 });
}

/** How the browser tells a refused write: records title the toast with the spec's text (failureToast). */
export type FailureToast = (fallback: string, error: unknown) => void;

/** A refused write: its status, the field errors and, in the browser, the spec's failure toast. */
export function failed(context: unknown, title: string, error: unknown, showToast: FailureToast = failureToast) {
  const onServer = isServerContext(context);
  // An error without a status is not a refusal but a fault: on the server it is the 500 page (and logged).
  if (onServer && statusOf(error) === undefined) throw error;
  if (!onServer) showToast(title, error);
  const failure: WriteFailure = {
    title,
    message: messageOf(error, ''),
    errors: firstErrorPerField(issuesOf(error) ?? []),
    toasted: !onServer,
  };
  return data(failure, { status: statusOf(error) ?? 500 });
}

/** The success toast exists only in the browser; a page posted without JavaScript simply shows the result. */
export function announce(context: unknown, title: string) {
  if (!isServerContext(context)) toast({ title });
}

/**
 * A delete's success toast (the spec's text) with an Undo beside it: deleted records wait in Recently deleted, and
 * Undo brings back these ones (POST /api/deleted/undo), then the page reads its data again.
 */
export function announceDelete(context: unknown, title: string, kind: RecordType, ids: number[]) {
  if (isServerContext(context)) return;
  toast({
    title,
    action: {
      label: 'Undo',
      // The undo's code loads on the click: it is not part of any page's first load.
      run: () => import('./undo-delete.js').then((undo) => undo.undoDelete(kind, ids)),
    },
  });
}

/** The add page (no :id) creates, the edit page (:id) replaces every form field; both go to the detail page. */
export function recordFormAction(config: RecordConfig, sections: readonly FormSection[]) {
  const fields = allFields(sections);
  return gatedAction(async ({ request, params, context }: ActionFunctionArgs) => {
    const form = await request.formData();
    const body = readForm(form, fields);
    const ds = dataSource(context);
    if (params.id === undefined) {
      try {
        const saved = await ds.createRecord(config.kind, body);
        announce(context, config.messages.created);
        return redirect(detailPath(config, saved.id));
      } catch (error) {
        return failed(context, config.messages.createFailed, error);
      }
    }
    const id = parseRecordId(params.id);
    try {
      const saved = await ds.updateRecord(config.kind, id, { ...body, version: formVersion(form) });
      announce(context, config.messages.updated);
      return redirect(detailPath(config, saved.id));
    } catch (error) {
      if (isEditConflict(error)) return conflicted(config.messages.updateFailed, error, await ds.getRecord(config.kind, id), body);
      return failed(context, config.messages.updateFailed, error);
    }
  });
}

/** One kind of post a page's action answers, named by the form's `intent` field; it gets the form already read. */
export type IntentHandler = (args: ActionFunctionArgs, form: FormData) => Promise<unknown>;

/**
 * A page action that answers several kinds of post (a detail page deletes its record and writes its contacts,
 * payments and files): the form's `intent` picks the handler; any other post is refused.
 */
export function intentAction(handlers: Readonly<Record<string, IntentHandler>>) {
  return gatedAction(async (args: ActionFunctionArgs) => {
    const form = await args.request.formData();
    const intent = form.get('intent');
    const handler = typeof intent === 'string' && Object.hasOwn(handlers, intent) ? handlers[intent] : undefined;
    if (!handler) throw data('Unknown request', { status: 400 });
    return handler(args, form);
  });
}

/** A posted id field (`id`, `contactId`…); 0, which no row has, when it is missing or malformed. */
export function formId(form: FormData, name = 'id'): number {
  const value = form.get(name);
  return parseRecordId(typeof value === 'string' ? value : undefined);
}

/**
 * One click never deletes: a post without the confirmation (a page posted before or without JavaScript) only
 * asks the spec's question, and the page shows it with its own Delete button. Null when the post is confirmed.
 */
export function unconfirmedDelete(form: FormData): DeleteConfirmation | null {
  if (form.get('confirmed') === 'yes') return null;
  const intent = form.get('intent');
  return { confirmDelete: formId(form), intent: typeof intent === 'string' ? intent : '' };
}

/**
 * Delete from the detail page (the record of the URL; then the list) or from the list (the record the form
 * names; then the same list again, replacing the history entry, so search and page stay).
 */
export function deleteRecordIntent(config: RecordConfig, from: 'detail' | 'list'): IntentHandler {
  return async ({ request, params, context }, form) => {
    const asked = unconfirmedDelete(form);
    if (asked) return asked;
    const id = from === 'detail' ? parseRecordId(params.id) : formId(form);
    try {
      await dataSource(context).deleteRecord(config.kind, id);
      announceDelete(context, config.messages.deleted, config.kind, [id]);
    } catch (error) {
      return failed(context, config.messages.deleteFailed, error);
    }
    if (from === 'detail') return redirect(config.listPath);
    return sameLocation(request);
  };
}

/** The page the post came from again, replacing the history entry (its search and page stay). */
export function sameLocation(request: Request) {
  const url = new URL(request.url);
  return replace(url.pathname + url.search);
}
