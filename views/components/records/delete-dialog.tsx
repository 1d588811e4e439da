import { useRef, useState } from 'react';
import { Link, useActionData, useFetcher, useLocation } from 'react-router';
import { messageOf } from '@shared/api-error.js';
import { useCanWrite } from '@views/hooks/use-session.js';
import { toast } from '../ui/toast.js';
import { ActionsMenu } from '../ui/actions-menu.js';
import { ButtonLink } from '../ui/button-link.js';
import { Button, cx } from '../ui/primitives.js';
import { useDialogPrimitive } from '../ui/dialog.js';
import { deleteFields, type DeleteConfirmation } from './delete-fields.js';
import { editPath, type RecordConfig } from './record-config.js';

/** Where a deleted record can be had back: the Undo of the delete's toast, or Recently deleted (admins) for 30 days. */
export const RESTORE_HINT = 'The message that follows offers Undo, and an admin can restore from Recently deleted for 30 days.';

export interface ConfirmDeleteButtonProps {
  /** The spec's confirmation question, word for word. */
  question: string;
  /** A line under the question (where a record can be restored), kept apart so the spec's question stays word for word. */
  hint?: string;
  /** Runs the deletion; the dialog stays open (and its buttons disabled) until it settles. */
  onConfirm(): Promise<void>;
  /** The trigger's visible text. */
  label?: string;
  /** The trigger's accessible name when the visible text alone is ambiguous (e.g. on a card in a list). */
  ariaLabel?: string;
  small?: boolean;
  /**
   * Without JavaScript there is no dialog: given these fields, the button posts them to the page's own URL, whose
   * route action deletes. Once hydrated the button opens the dialog instead and never posts the form itself.
   */
  postFields?: Record<string, string>;
  /** Puts the button in a "⋯" menu labelled 'More actions for {menuFor}' (cards and rows), out of the way. */
  menuFor?: string;
}

/**
 * A delete button that asks first in an accessible dialog (not window.confirm): focus starts on Cancel, the
 * safe choice, Escape cancels, and focus returns to the button when the dialog closes.
 */
export function ConfirmDeleteButton({
  question,
  hint,
  onConfirm,
  label = 'Delete',
  ariaLabel,
  small,
  postFields,
  menuFor,
}: ConfirmDeleteButtonProps) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const asked = useActionData<DeleteConfirmation | undefined>();
  const location = useLocation();
  const canWrite = useCanWrite();
  const Dialog = useDialogPrimitive();
  if (!canWrite) return null;

  // Posted without JavaScript, the delete came back as a question: ask it here, in place of the button.
  if (
    postFields &&
    asked?.confirmDelete !== undefined &&
    asked.intent === postFields.intent &&
    String(asked.confirmDelete) === (postFields.id ?? '')
  ) {
    return (
      <form method="post" className="inline-form records-confirm-inline" role="alertdialog" aria-label="Confirm deletion">
        <p>{question}</p>
        {hint && <p className="muted delete-hint">{hint}</p>}
        {Object.entries({ ...postFields, confirmed: 'yes' }).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Link className="btn btn-outline btn-sm" to={location.pathname + location.search} replace>
          Cancel
        </Link>
        <Button type="submit" variant="destructive" className="btn-sm">
          Delete
        </Button>
      </form>
    );
  }

  async function confirm() {
    setPending(true);
    try {
      await onConfirm();
    } finally {
      setPending(false);
      setOpen(false);
    }
  }

  // The same button before and after the dialog's code has loaded (no Dialog.Trigger around it): a click or the
  // focus it has when the code arrives is never lost to a new element, and a click before then opens the dialog
  // once it is here.
  const button = (
    <Button
      ref={triggerRef}
      type={postFields ? 'submit' : 'button'}
      variant="danger-quiet"
      className={cx(small && 'btn-sm', menuFor && 'actions-menu-item')}
      aria-label={ariaLabel}
      aria-haspopup="dialog"
      aria-expanded={open}
      onClick={() => setOpen(true)}
    >
      {label}
    </Button>
  );
  const triggerArea = postFields ? (
    <form method="post" className="inline-form" onSubmit={(event) => event.preventDefault()}>
      {Object.entries(postFields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {button}
    </form>
  ) : (
    button
  );
  const dialog = (
    <>
      {triggerArea}
      {Dialog && (
        <Dialog.Root open={open} onOpenChange={(next) => !pending && setOpen(next)}>
          <Dialog.Portal>
            <Dialog.Overlay className="dialog-overlay" />
            <Dialog.Content
              className="dialog records-confirm"
              role="alertdialog"
              onOpenAutoFocus={(event) => {
                event.preventDefault();
                cancelRef.current?.focus();
              }}
              // Radix gives focus back to its own trigger, which this dialog has none of: back to the button.
              onCloseAutoFocus={(event) => {
                event.preventDefault();
                triggerRef.current?.focus();
              }}
              // Radix starts listening for Escape a render or two after the dialog has put focus on Cancel: an Escape
              // pressed in between would be lost, so one pressed inside the dialog closes it here as well.
              onKeyDown={(event) => {
                if (event.key === 'Escape' && !pending) setOpen(false);
              }}
            >
              <Dialog.Title className="dialog-title">Confirm deletion</Dialog.Title>
              <Dialog.Description>{question}</Dialog.Description>
              {hint && <p className="muted delete-hint">{hint}</p>}
              <div className="dialog-actions">
                <Dialog.Close asChild>
                  <button ref={cancelRef} type="button" className="btn btn-outline" disabled={pending}>
                    Cancel
                  </button>
                </Dialog.Close>
                <Button variant="destructive" disabled={pending} onClick={() => void confirm()}>
                  {pending ? 'Deleting...' : 'Delete'}
                </Button>
              </div>
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
      )}
    </>
  );
  return menuFor ? <ActionsMenu label={`More actions for ${menuFor}`}>{dialog}</ActionsMenu> : dialog;
}

/** A failure toast: the spec's text as the title, and the server's own message under it when it sent one. */
export function failureToast(fallback: string, error: unknown) {
  const serverMessage = messageOf(error, '');
  toast({ title: fallback, description: serverMessage && serverMessage !== fallback ? serverMessage : undefined, variant: 'destructive' });
}

/**
 * Deletes through the route action of the page it is shown on (views/components/records/actions.ts): the action
 * raises the toast, and goes to the list from a detail page or reloads the list it was asked from. `intent` names
 * what is deleted: the record ('delete'), or one of its contacts, payments or files (attachments/actions.ts).
 */
export function useDeleteRecord(intent = 'delete') {
  const fetcher = useFetcher();
  const location = useLocation();
  return (id: number) => fetcher.submit(deleteFields(id, true, intent), { method: 'post', action: location.pathname + location.search });
}

/**
 * A detail page's header actions: the edit link and the delete button with its confirmation. `question` null
 * leaves the delete button out (a published professional cannot be deleted here).
 */
export function RecordDetailActions({
  kind,
  id,
  editLabel,
  question,
}: {
  kind: RecordConfig;
  id: number;
  editLabel: string;
  question: string | null;
}) {
  const deleteRecord = useDeleteRecord();
  if (!useCanWrite()) return null;
  return (
    <>
      <ButtonLink to={editPath(kind, id)}>{editLabel}</ButtonLink>
      {question !== null && (
        <ConfirmDeleteButton question={question} hint={RESTORE_HINT} postFields={deleteFields(id)} onConfirm={() => deleteRecord(id)} />
      )}
    </>
  );
}
