import { useId, type ReactNode } from 'react';
import { Form, Link } from 'react-router';
import type { ContactOwnerType } from '@shared/record-types.js';
import { ContactInputSchema } from '@shared/schemas/contacts.js';
import { FailureAlert } from '../records/record-form.js';
import { Button, FieldError, Input, Label, Textarea } from '../ui/primitives.js';
import { contactBody } from './actions.js';
import type { Contact } from '@shared/schemas/attachments.js';
import { useCheckedSubmit } from './use-checked-submit.js';

/**
 * The <form> of an attachment form: on a page a <Form> posting the page's own action, in a dialog the fetcher's
 * form posting the detail page's action. Either way a refused post the server ran shows its failure on top.
 */
export function PostedForm({ form, children }: { form: ReturnType<typeof useCheckedSubmit>; children: ReactNode }) {
  const props = { method: 'post', className: 'attachments-form', noValidate: true, onSubmit: form.onSubmit } as const;
  const content = (
    <>
      <FailureAlert failure={form.failure} />
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
  const form = useCheckedSubmit(ContactInputSchema, contactBody, 'onSaved' in place ? place.onSaved : undefined);
  const { errors, pending } = form;

  const field = (name: string) => ({
    id: `${id}-${name}`,
    name,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  });

  return (
    <PostedForm form={form}>
      {'onSaved' in place && <input type="hidden" name="intent" value="save-contact" />}
      {'onSaved' in place && contact && <input type="hidden" name="id" value={contact.id} />}
      <input type="hidden" name="entityType" value={ownerType} />
      <input type="hidden" name="entityId" value={ownerId} />
      <div className="form-grid">
        <div className="field">
          <Label htmlFor={`${id}-firstName`} required>
            First Name
          </Label>
          <Input {...field('firstName')} defaultValue={contact?.firstName ?? ''} autoComplete="off" />
          <FieldError id={`${id}-firstName-error`} message={errors.firstName} />
        </div>
        <div className="field">
          <Label htmlFor={`${id}-lastName`} required>
            Last Name
          </Label>
          <Input {...field('lastName')} defaultValue={contact?.lastName ?? ''} autoComplete="off" />
          <FieldError id={`${id}-lastName-error`} message={errors.lastName} />
        </div>
        <div className="field">
          <Label htmlFor={`${id}-jobTitle`}>Job Title</Label>
          <Input {...field('jobTitle')} defaultValue={contact?.jobTitle ?? ''} />
          <FieldError id={`${id}-jobTitle-error`} message={errors.jobTitle} />
        </div>
        <div className="field">
          <Label htmlFor={`${id}-email`}>Email</Label>
          <Input {...field('email')} type="email" defaultValue={contact?.email ?? ''} />
          <FieldError id={`${id}-email-error`} message={errors.email} />
        </div>
        <div className="field">
          <Label htmlFor={`${id}-phone`}>Phone</Label>
          <Input {...field('phone')} type="tel" defaultValue={contact?.phone ?? ''} />
          <FieldError id={`${id}-phone-error`} message={errors.phone} />
        </div>
        <div className="field">
          <Label htmlFor={`${id}-mailchimpTags`}>Mailchimp Tags</Label>
          <Input
            {...field('mailchimpTags')}
            defaultValue={(contact?.mailchimpTags ?? []).join(', ')}
            placeholder="newsletter, runner, vip"
          />
          <p className="muted attachments-hint">Separate tags with commas</p>
          <FieldError id={`${id}-mailchimpTags-error`} message={errors.mailchimpTags} />
        </div>
      </div>
      <div className="field">
        <Label htmlFor={`${id}-notes`}>Notes</Label>
        <Textarea {...field('notes')} rows={4} defaultValue={contact?.notes ?? ''} />
        <FieldError id={`${id}-notes-error`} message={errors.notes} />
      </div>
      <div className="field checkbox-row">
        <input id={`${id}-isPrimary`} name="isPrimary" type="checkbox" defaultChecked={contact?.isPrimary ?? false} />
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
