import { useId, type ReactNode } from 'react';
import { Form, Link, useLocation, useRevalidator } from 'react-router';
import type { ContactOwnerType } from '@shared/record-types.js';
import { formCheck } from '@views/hooks/form-check.js';
import { initialText } from '../records/form-fields.js';
import { EditConflictAlert, FailureAlert } from '../records/record-form.js';
import { Button, FieldError, Input, Label, Textarea } from '../ui/primitives.js';
import { contactBody } from './actions.js';
import type { Contact } from '@shared/schemas/attachments.js';
import { useCheckedSubmit } from './use-checked-submit.js';

/** The contact form's check: the schema the API parses contacts with, loaded as the form shows. */
const contactCheck = formCheck(() => import('@shared/schemas/contacts.js').then((schemas) => schemas.ContactInputSchema));

/**
 * The <form> of an attachment form: on a page a <Form> posting the page's own action, in a dialog the fetcher's
 * form posting the detail page's action. Either way a refused post the server ran shows its failure on top.
 */
export function PostedForm({
  form,
  version,
  closeDialog,
  children,
}: {
  form: ReturnType<typeof useCheckedSubmit>;
  /** The updatedAt of the item being edited (absent when adding): the save carries it (issue 13). */
  version?: string;
  /**
   * In a dialog, how it closes: Reload closes it and reads the page's data again, so the card shows the other
   * change. On a page Reload opens the page afresh.
   */
  closeDialog?: () => void;
  children: ReactNode;
}) {
  const location = useLocation();
  const revalidator = useRevalidator();
  const conflict = form.failure?.conflict;
  const props = { method: 'post', className: 'attachments-form', noValidate: true, onSubmit: form.onSubmit } as const;
  const content = (
    <>
      <FailureAlert failure={form.failure} />
      {version !== undefined && <input type="hidden" name="version" value={conflict?.version ?? version} />}
      {conflict && (
        <EditConflictAlert
          title={form.failure!.title}
          message={conflict.message}
          reload={
            closeDialog ? (
              <Button
                variant="outline"
                onClick={() => {
                  void revalidator.revalidate();
                  closeDialog();
                }}
              >
                Reload
              </Button>
            ) : (
              <Link to={location.pathname + location.search} className="btn btn-outline">
                Reload
              </Link>
            )
          }
          saveAnyway={<Button type="submit">Save anyway</Button>}
        />
      )}
      {children}
    </>
  );
  return form.inDialog ? <form.fetcher.Form {...props}>{content}</form.fetcher.Form> : <Form {...props}>{content}</Form>;
}

export interface ContactFormProps {
  ownerType: ContactOwnerType;
  ownerId: number;
  /** Given: the form updates this contact; absent: it creates one. */
  contact?: Contact | null;
  /**
   * On a page: `cancelTo`, and the form posts the page (its route action saves and leads on). In the brand and
   * media dialog: `onSaved` and `onCancel`; the form posts the detail page's `save-contact` intent.
   */
  place: { cancelTo: string } | { onSaved(): void; onCancel(): void };
}

/** The contact fields (spec point 2), checked with the same schema the server uses before anything is sent. */
export function ContactForm({ ownerType, ownerId, contact, place }: ContactFormProps) {
  const id = useId();
  const form = useCheckedSubmit(contactCheck, contactBody, 'onSaved' in place ? place.onSaved : undefined);
  const { errors, pending } = form;
  // After an edit conflict the form keeps what was typed (a page posted without JavaScript renders it afresh).
  const shown = (form.failure?.conflict?.values ?? contact ?? {}) as Partial<Record<string, unknown>>;
  const initial = (name: string) => initialText(shown[name]);

  const field = (name: string) => ({
    id: `${id}-${name}`,
    name,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  });

  return (
    <PostedForm form={form} version={contact?.updatedAt} closeDialog={'onSaved' in place ? place.onCancel : undefined}>
      {'onSaved' in place && <input type="hidden" name="intent" value="save-contact" />}
      {'onSaved' in place && contact && <input type="hidden" name="id" value={contact.id} />}
      <input type="hidden" name="entityType" value={ownerType} />
      <input type="hidden" name="entityId" value={ownerId} />
      <div className="form-grid">
        <div className="field">
          <Label htmlFor={`${id}-firstName`} required>
            First Name
          </Label>
          <Input {...field('firstName')} defaultValue={initial('firstName')} autoComplete="off" />
          <FieldError id={`${id}-firstName-error`} message={errors.firstName} />
        </div>
        <div className="field">
          <Label htmlFor={`${id}-lastName`} required>
            Last Name
          </Label>
          <Input {...field('lastName')} defaultValue={initial('lastName')} autoComplete="off" />
          <FieldError id={`${id}-lastName-error`} message={errors.lastName} />
        </div>
        <div className="field">
          <Label htmlFor={`${id}-jobTitle`}>Job Title</Label>
          <Input {...field('jobTitle')} defaultValue={initial('jobTitle')} />
          <FieldError id={`${id}-jobTitle-error`} message={errors.jobTitle} />
        </div>
        <div className="field">
          <Label htmlFor={`${id}-email`}>Email</Label>
          <Input {...field('email')} type="email" defaultValue={initial('email')} />
          <FieldError id={`${id}-email-error`} message={errors.email} />
        </div>
        <div className="field">
          <Label htmlFor={`${id}-phone`}>Phone</Label>
          <Input {...field('phone')} type="tel" defaultValue={initial('phone')} />
          <FieldError id={`${id}-phone-error`} message={errors.phone} />
        </div>
        <div className="field">
          <Label htmlFor={`${id}-mailchimpTags`}>Mailchimp Tags</Label>
          <Input {...field('mailchimpTags')} defaultValue={initial('mailchimpTags')} placeholder="newsletter, runner, vip" />
          <p className="muted attachments-hint">Separate tags with commas</p>
          <FieldError id={`${id}-mailchimpTags-error`} message={errors.mailchimpTags} />
        </div>
      </div>
      <div className="field">
        <Label htmlFor={`${id}-notes`}>Notes</Label>
        <Textarea {...field('notes')} rows={4} defaultValue={initial('notes')} />
        <FieldError id={`${id}-notes-error`} message={errors.notes} />
      </div>
      <div className="field checkbox-row">
        <input id={`${id}-isPrimary`} name="isPrimary" type="checkbox" defaultChecked={shown.isPrimary === true} />
        <label htmlFor={`${id}-isPrimary`}>Primary contact</label>
      </div>
      <div className="form-actions">
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving...' : contact ? 'Update Contact' : 'Create Contact'}
        </Button>
        {'cancelTo' in place ? (
          <Link to={place.cancelTo} className="btn btn-outline">
            Cancel
          </Link>
        ) : (
          <Button variant="outline" onClick={place.onCancel} disabled={pending}>
            Cancel
          </Button>
        )}
      </div>
    </PostedForm>
  );
}
