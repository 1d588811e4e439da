import { redirect, type ActionFunctionArgs } from 'react-router';
import { isEditConflict, messageOf } from '@shared/api-error.js';
import { dataSource, gatedAction, isServerContext } from '@views/data/source.js';
import {
  announce,
  conflicted,
  deleteRecordIntent,
  failed,
  formId,
  formVersion,
  intentAction,
  sameLocation,
  unconfirmedDelete,
  type FailureToast,
  type IntentHandler,
} from '../records/actions.js';
import { readForm, type FieldSpec } from '../records/form-fields.js';
import { parseRecordId } from '../records/loaders.js';
import type { RecordConfig } from '../records/record-config.js';
import { toast } from '../ui/toast.js';
import { hasContactsTab, ownerContactsPath, safeReturnPath } from './paths.js';
import type { Contact } from '@shared/schemas/attachments.js';

/**
 * Contact, payment and file writes as route actions (docs/decisions/0004-ssr-data-flow.md), built from the record
 * actions' helpers: the contact pages post their own URL (a <Form>, so they work without JavaScript); the cards
 * and dialogs of a record's detail page post the detail page with an `intent` through a fetcher. The action
 * calls the DataSource and, in the browser, raises the spec's toast; the loaders revalidate by themselves.
 */

/** Attachment failures are titled 'Error', with the server's message when it sent one, else the spec's text. */
const attachmentFailureToast: FailureToast = (fallback, error) =>
  toast({ title: 'Error', description: messageOf(error, fallback), variant: 'destructive' });

/** What a successful write hands back to a fetcher's form: the dialog closes on it. */
export interface WriteDone {
  ok: true;
}

/**
 * A card's write went through: a fetcher gets `ok` and the page's loaders revalidate; a page posted without
 * JavaScript is sent back to itself, so reloading it does not post again.
 */
function done({ context, request }: ActionFunctionArgs) {
  if (isServerContext(context)) return sameLocation(request);
  const answer: WriteDone = { ok: true };
  return answer;
}

/** How a posted form's fields become the API's body (as readForm reads a record form; the owner id separately). */
type PostedField = Pick<FieldSpec, 'name' | 'kind'>;
const textFields = (...names: string[]): PostedField[] => names.map((name) => ({ name, kind: 'text' }));

/**
 * The contact form's fields (spec point 2). Tags go as typed, comma separated: the schema splits, trims and
 * de-duplicates them. The owner travels as hidden fields, as it did in the JSON body.
 */
const CONTACT_FIELDS: readonly PostedField[] = [
  ...textFields('firstName', 'lastName', 'jobTitle', 'email', 'phone', 'mailchimpTags', 'notes', 'entityType'),
  { name: 'isPrimary', kind: 'checkbox' },
];

/** The payment form's fields, all text (amounts stay exact); the owner travels as hidden fields. */
const PAYMENT_FIELDS: readonly PostedField[] = textFields(
  'description',
  'amount',
  'paymentType',
  'invoiceStatus',
  'paymentDate',
  'invoiceNumber',
  'startDate',
  'endDate',
  'paymentMethod',
  'notes',
  'entityType',
);

/** The body the API takes, from a posted contact or payment form (the browser's own check reads it the same way). */
// The owner id goes as a number, as in the JSON body /api has always been sent (0, no record's id, when malformed).
export const contactBody = (form: FormData) => ({ ...readForm(form, CONTACT_FIELDS), entityId: formId(form, 'entityId') });
export const paymentBody = (form: FormData) => ({ ...readForm(form, PAYMENT_FIELDS), entityId: formId(form, 'entityId') });

/** The spec's texts of a contact create, which differ between the contact pages and the brand/media dialog. */
interface CreateTexts {
  created: string;
  createFailed: string;
}
const PAGE_CREATE: CreateTexts = { created: 'Contact created successfully', createFailed: 'Failed to create contact' };
const DIALOG_CREATE: CreateTexts = { created: 'Contact added successfully', createFailed: 'Failed to add contact' };
const CONTACT_UPDATED = 'Contact updated successfully';
const CONTACT_UPDATE_FAILED = 'Failed to update contact';

/**
 * The two wordings of a contact delete (spec point 8) differ only by a full stop: the Contacts tab (events,
 * professionals, run clubs) and the contact detail page use it, the brand and media card does not.
 */
function contactDeleteTexts(withStop: boolean) {
  const stop = withStop ? '.' : '';
  return { deleted: `Contact deleted successfully${stop}`, deleteFailed: `Failed to delete contact${stop}` };
}

/**
 * A contact page's form: it creates when the page names no contact (`contactIdOf` null) and updates the one it
 * names otherwise, then goes where the page says (the owner's contacts, or the `return` path).
 */
function contactFormAction(
  texts: CreateTexts,
  contactIdOf: (params: ActionFunctionArgs['params']) => number | null,
  after: (request: Request, saved: Contact) => string,
) {
  return gatedAction(async ({ request, params, context }: ActionFunctionArgs) => {
    const form = await request.formData();
    const body = contactBody(form);
    const contactId = contactIdOf(params);
    const ds = dataSource(context);
    try {
      const saved =
        contactId === null ? await ds.createContact(body) : await ds.updateContact(contactId, { ...body, version: formVersion(form) });
      announce(context, contactId === null ? texts.created : CONTACT_UPDATED);
      return redirect(after(request, saved));
    } catch (error) {
      if (contactId !== null && isEditConflict(error)) return conflicted(CONTACT_UPDATE_FAILED, error, await ds.contact(contactId), body);
      return failed(context, contactId === null ? texts.createFailed : CONTACT_UPDATE_FAILED, error, attachmentFailureToast);
    }
  });
}

/** /<owner>/:id/contacts/add and /<owner>/:id/contacts/:contactId/edit: back to the owner's contacts. */
export const ownerContactAction = contactFormAction(
  PAGE_CREATE,
  (params) => (params.contactId === undefined ? null : parseRecordId(params.contactId)),
  (_request, saved) => ownerContactsPath(saved.entityType, saved.entityId),
);

/** The `return` path of a /contacts/:id page (same-site only). */
const returnPathOf = (request: Request) => safeReturnPath(new URL(request.url).searchParams.get('return'));

/** /contacts/:id/edit?return=…: back to the return path. */
export const contactEditAction = contactFormAction(
  PAGE_CREATE,
  (params) => parseRecordId(params.id),
  (request) => returnPathOf(request),
);

/** Deletes the contact, payment or file the form names, after the user's yes; `after` answers a success. */
function deleteIntent(
  remove: (args: ActionFunctionArgs, id: number) => Promise<void>,
  texts: { deleted: string; deleteFailed: string },
  after: (args: ActionFunctionArgs) => unknown,
): IntentHandler {
  return async (args, form) => {
    const asked = unconfirmedDelete(form);
    if (asked) return asked;
    try {
      await remove(args, formId(form));
      announce(args.context, texts.deleted);
    } catch (error) {
      return failed(args.context, texts.deleteFailed, error, attachmentFailureToast);
    }
    return after(args);
  };
}

/** /contacts/:id?return=…: its Delete removes the contact and goes to the return path. */
export const contactDetailAction = intentAction({
  delete: deleteIntent(
    ({ context }, id) => dataSource(context).deleteContact(id),
    contactDeleteTexts(true),
    ({ request }) => redirect(returnPathOf(request)),
  ),
});

/** Creates (no `id`) or updates (`id`) the contact or payment a card's dialog posted. */
function saveIntent(
  save: {
    create(args: ActionFunctionArgs, body: unknown): Promise<unknown>;
    update(args: ActionFunctionArgs, id: number, body: unknown): Promise<unknown>;
    /** The item as it is now, whose version a deliberate overwrite carries; null when it cannot be read singly. */
    current(args: ActionFunctionArgs, id: number): Promise<{ updatedAt: string } | null>;
  },
  bodyOf: (form: FormData) => Record<string, unknown>,
  texts: { created: string; createFailed: string; updated: string; updateFailed: string },
): IntentHandler {
  return async (args, form) => {
    // The dialog names the item it edits; a new one has no id field.
    const id = form.has('id') ? formId(form) : null;
    const body = bodyOf(form);
    try {
      if (id === null) await save.create(args, body);
      else await save.update(args, id, { ...body, version: formVersion(form) });
      announce(args.context, id === null ? texts.created : texts.updated);
    } catch (error) {
      if (id !== null && isEditConflict(error)) return conflicted(texts.updateFailed, error, await save.current(args, id), body);
      return failed(args.context, id === null ? texts.createFailed : texts.updateFailed, error, attachmentFailureToast);
    }
    return done(args);
  };
}

const ds = (args: ActionFunctionArgs) => dataSource(args.context);

/**
 * A record's detail page action: its own delete, and the writes of its contacts, payments and files, which the
 * cards post here with their intent.
 */
export function recordDetailAction(config: RecordConfig) {
  return intentAction({
    delete: deleteRecordIntent(config, 'detail'),
    'save-contact': saveIntent(
      {
        create: (args, body) => ds(args).createContact(body),
        update: (args, id, body) => ds(args).updateContact(id, body),
        current: (args, id) => ds(args).contact(id),
      },
      contactBody,
      { ...DIALOG_CREATE, updated: CONTACT_UPDATED, updateFailed: CONTACT_UPDATE_FAILED },
    ),
    'delete-contact': deleteIntent((args, id) => ds(args).deleteContact(id), contactDeleteTexts(hasContactsTab(config.kind)), done),
    'save-payment': saveIntent(
      {
        create: (args, body) => ds(args).createPayment(body),
        update: (args, id, body) => ds(args).updatePayment(id, body),
        // /api has no single-payment read: Save anyway sends no version.
        current: () => Promise.resolve(null),
      },
      paymentBody,
      {
        created: 'Payment added successfully',
        createFailed: 'Failed to add payment',
        updated: 'Payment updated successfully',
        updateFailed: 'Failed to update payment',
      },
    ),
    'delete-payment': deleteIntent(
      (args, id) => ds(args).deletePayment(id),
      { deleted: 'Payment deleted successfully', deleteFailed: 'Failed to delete payment' },
      done,
    ),
    'delete-file': deleteIntent(
      (args, id) => ds(args).deleteFile(id),
      { deleted: 'File deleted successfully', deleteFailed: 'Failed to delete file' },
      done,
    ),
  });
}
