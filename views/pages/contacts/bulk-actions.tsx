import { useRef, useState, type ReactNode } from 'react';
import { useFetcher, useLocation } from 'react-router';
import { messageOf } from '@shared/api-error.js';
import type { BulkMailchimpResult } from '@shared/schemas/bulk.js';
import type { MailchimpAudience } from '@shared/schemas/integrations.js';
import type { WriteFailure } from '@views/components/records/actions.js';
import type { SelectedIds } from '@views/components/records/selection.js';
import { AudienceSelect } from '@views/components/mailchimp/audience-select.js';
import { Alert, Button, Input } from '@views/components/ui/primitives.js';
import { dataSource } from '@views/data/source.js';
import { useCanWrite } from '@views/hooks/use-session.js';
import { useDialogPrimitive } from '@views/components/ui/dialog.js';

/** What the directory's action hands back to the audience dialog: the report, or why it was refused. */
export type AudienceAnswer = { mailchimp: BulkMailchimpResult } | WriteFailure;

const contactsWord = (count: number) => (count === 1 ? '1 contact' : `${count} contacts`);

/** One of the bulk bar's dialogs: a trigger button, a title naming the selection, and its body. */
function BulkDialog({
  label,
  title,
  pending,
  onOpen,
  onClosed,
  children,
}: {
  label: string;
  title: string;
  pending: boolean;
  onOpen?(): void;
  onClosed?(): void;
  children(close: () => void): ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const change = (next: boolean) => {
    if (pending) return;
    setOpen(next);
    if (next) onOpen?.();
    else onClosed?.();
  };
  const Dialog = useDialogPrimitive();
  const triggerRef = useRef<HTMLButtonElement>(null);
  // The same button before and after the dialog's code has loaded (no Dialog.Trigger around it), so neither a
  // click nor the focus it has when the code arrives is lost to a new element.
  return (
    <>
      <Button
        ref={triggerRef}
        variant="outline"
        className="btn-sm"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => change(true)}
      >
        {label}
      </Button>
      {Dialog && (
        <Dialog.Root open={open} onOpenChange={change}>
          <Dialog.Portal>
            <Dialog.Overlay className="dialog-overlay" />
            <Dialog.Content
              className="dialog"
              aria-describedby={undefined}
              // Radix gives focus back to its own trigger, which this dialog has none of: back to the button.
              onCloseAutoFocus={(event) => {
                event.preventDefault();
                triggerRef.current?.focus();
              }}
            >
              <Dialog.Title className="dialog-title">{title}</Dialog.Title>
              {children(() => change(false))}
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
      )}
    </>
  );
}

/** "Add tag" or "Remove tag": the tags typed (comma separated) go on, or come off, every selected contact. */
function TagDialog({
  mode,
  selectedIds,
  count,
  onDone,
}: {
  mode: 'add' | 'remove';
  selectedIds: SelectedIds;
  count: number;
  onDone(): void;
}) {
  const fetcher = useFetcher();
  const location = useLocation();
  const [tags, setTags] = useState('');
  const [pending, setPending] = useState(false);
  const label = mode === 'add' ? 'Add tag' : 'Remove tag';
  const inputId = `bulk-tags-${mode}`;

  async function submit(close: () => void) {
    setPending(true);
    try {
      const ids = await selectedIds('tagged');
      if (!ids) return;
      await fetcher.submit(
        { intent: 'bulk-tags', ids: ids.join(','), add: mode === 'add' ? tags : '', remove: mode === 'remove' ? tags : '' },
        { method: 'post', action: location.pathname + location.search },
      );
    } finally {
      setPending(false);
    }
    setTags('');
    close();
    onDone();
  }

  return (
    <BulkDialog label={label} title={`${label} on ${contactsWord(count)}`} pending={pending}>
      {(close) => (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void submit(close);
          }}
        >
          <div className="field">
            <label className="label" htmlFor={inputId}>
              Tags (comma separated)
            </label>
            <Input id={inputId} value={tags} onChange={(event) => setTags(event.target.value)} disabled={pending} autoComplete="off" />
          </div>
          <div className="dialog-actions">
            <Button variant="outline" disabled={pending} onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending || tags.trim() === ''}>
              {pending ? 'Saving...' : label}
            </Button>
          </div>
        </form>
      )}
    </BulkDialog>
  );
}

/** The audience dialog's report: counts, then every address Mailchimp refused with its reason. */
function AudienceReport({ result }: { result: BulkMailchimpResult }) {
  return (
    <div role="status" aria-label="Mailchimp result">
      <p>
        Added {result.added}, updated {result.updated}, skipped {result.skipped} (no email address, or unsubscribed from this audience:
        never re-subscribed), failed {result.failed.length}.
      </p>
      {result.failed.length > 0 && (
        <ul aria-label="Failed">
          {result.failed.map((failure) => (
            <li key={failure.id}>
              {failure.email}: {failure.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * "Add to Mailchimp audience": opening the dialog loads the audiences (the list the Integrations page shows); the
 * chosen one gets the selected contacts through the member upsert, and the dialog reports what happened.
 */
function AudienceDialog({ selectedIds, count, onDone }: { selectedIds: SelectedIds; count: number; onDone(): void }) {
  const fetcher = useFetcher<AudienceAnswer>();
  const location = useLocation();
  const [audiences, setAudiences] = useState<MailchimpAudience[] | null>(null);
  const [problem, setProblem] = useState('');
  const [audienceId, setAudienceId] = useState('');
  const [pending, setPending] = useState(false);
  const [asked, setAsked] = useState(false);
  const answer = asked && fetcher.state === 'idle' ? fetcher.data : undefined;

  async function load() {
    setAsked(false);
    setProblem('');
    try {
      setAudiences(await dataSource(null).mailchimpAudiences());
    } catch (error) {
      setProblem(messageOf(error, 'Failed to load audiences'));
    }
  }

  async function submit() {
    setPending(true);
    try {
      const ids = await selectedIds('added to an audience');
      if (!ids) return;
      setAsked(true);
      await fetcher.submit(
        { intent: 'bulk-mailchimp', ids: ids.join(','), audienceId },
        { method: 'post', action: location.pathname + location.search },
      );
    } finally {
      setPending(false);
    }
  }

  return (
    <BulkDialog
      label="Add to Mailchimp audience"
      title={`Add ${contactsWord(count)} to a Mailchimp audience`}
      pending={pending}
      onOpen={() => void load()}
      onClosed={() => answer && 'mailchimp' in answer && onDone()}
    >
      {(close) =>
        answer && 'mailchimp' in answer ? (
          <>
            <AudienceReport result={answer.mailchimp} />
            <div className="dialog-actions">
              <Button onClick={close}>Close</Button>
            </div>
          </>
        ) : (
          <>
            {problem && <Alert variant="destructive">{problem}</Alert>}
            {answer && 'title' in answer && <Alert variant="destructive">{answer.message || answer.title}</Alert>}
            <div className="field">
              <label className="label" htmlFor="bulk-audience">
                Audience
              </label>
              <AudienceSelect
                id="bulk-audience"
                audiences={audiences ?? []}
                value={audienceId}
                disabled={pending || audiences === null}
                onChange={setAudienceId}
                placeholder={audiences === null && !problem ? 'Loading audiences...' : 'Select an audience'}
              />
            </div>
            <p className="muted">Addresses that unsubscribed from the audience stay unsubscribed.</p>
            <div className="dialog-actions">
              <Button variant="outline" disabled={pending} onClick={close}>
                Cancel
              </Button>
              <Button onClick={() => void submit()} disabled={pending || audienceId === ''}>
                {pending ? 'Adding...' : 'Add to audience'}
              </Button>
            </div>
          </>
        )
      }
    </BulkDialog>
  );
}

/** The contacts directory's own bulk actions (staff and admins): tags on and off, and a Mailchimp audience. */
export function ContactBulkActions({ selectedIds, count, onDone }: { selectedIds: SelectedIds; count: number; onDone(): void }) {
  if (!useCanWrite()) return null;
  return (
    <>
      <TagDialog mode="add" selectedIds={selectedIds} count={count} onDone={onDone} />
      <TagDialog mode="remove" selectedIds={selectedIds} count={count} onDone={onDone} />
      <AudienceDialog selectedIds={selectedIds} count={count} onDone={onDone} />
    </>
  );
}
