import { useId, useState, type FormEvent } from 'react';
import type { ContactOwnerType } from '../../../src/shared/record-types.js';
import { ContactInputSchema, type ContactFormBody } from '../../../src/shared/schemas/contacts.js';
import { FieldError, Input, Label, Textarea, Button } from '../ui/primitives.js';
import type { Contact } from '../../../src/shared/schemas/attachments.js';
import { useCheckedSubmit } from './use-checked-submit.js';

interface ContactFormValues {
  firstName: string;
  lastName: string;
  jobTitle: string;
  email: string;
  phone: string;
  notes: string;
  isPrimary: boolean;
  /** Typed comma separated (spec point 2). */
  mailchimpTags: string;
}

function initialValues(contact?: Contact | null): ContactFormValues {
  return {
    firstName: contact?.firstName ?? '',
    lastName: contact?.lastName ?? '',
    jobTitle: contact?.jobTitle ?? '',
    email: contact?.email ?? '',
    phone: contact?.phone ?? '',
    notes: contact?.notes ?? '',
    isPrimary: contact?.isPrimary ?? false,
    mailchimpTags: (contact?.mailchimpTags ?? []).join(', '),
  };
}

export interface ContactFormProps {
  ownerType: ContactOwnerType;
  ownerId: number;
  /** Given: the form updates this contact; absent: it creates one. */
  contact?: Contact | null;
  /** Sends the validated body; rejects on failure (the caller shows the toast). */
  onSubmit(body: ContactFormBody): Promise<void>;
  onCancel(): void;
}

/** The contact fields (spec point 2), checked with the same schema the server uses before anything is sent. */
export function ContactForm({ ownerType, ownerId, contact, onSubmit, onCancel }: ContactFormProps) {
  const id = useId();
  const [values, setValues] = useState(() => initialValues(contact));
  const { errors, pending, submit: check } = useCheckedSubmit(ContactInputSchema, onSubmit);
  const set = <K extends keyof ContactFormValues>(key: K, value: ContactFormValues[K]) => setValues((current) => ({ ...current, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    await check({ ...values, entityType: ownerType, entityId: ownerId });
  }

  const field = (name: keyof ContactFormValues) => ({
    id: `${id}-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  });

  return (
    <form className="attachments-form" onSubmit={(event) => void submit(event)} noValidate>
      <div className="form-grid">
        <div className="field">
          <Label htmlFor={`${id}-firstName`} required>
            First Name
          </Label>
          <Input {...field('firstName')} value={values.firstName} onChange={(e) => set('firstName', e.target.value)} autoComplete="off" />
          <FieldError id={`${id}-firstName-error`} message={errors.firstName} />
        </div>
        <div className="field">
          <Label htmlFor={`${id}-lastName`} required>
            Last Name
          </Label>
          <Input {...field('lastName')} value={values.lastName} onChange={(e) => set('lastName', e.target.value)} autoComplete="off" />
          <FieldError id={`${id}-lastName-error`} message={errors.lastName} />
        </div>
        <div className="field">
          <Label htmlFor={`${id}-jobTitle`}>Job Title</Label>
          <Input {...field('jobTitle')} value={values.jobTitle} onChange={(e) => set('jobTitle', e.target.value)} />
          <FieldError id={`${id}-jobTitle-error`} message={errors.jobTitle} />
        </div>
        <div className="field">
          <Label htmlFor={`${id}-email`}>Email</Label>
          <Input {...field('email')} type="email" value={values.email} onChange={(e) => set('email', e.target.value)} />
          <FieldError id={`${id}-email-error`} message={errors.email} />
        </div>
        <div className="field">
          <Label htmlFor={`${id}-phone`}>Phone</Label>
          <Input {...field('phone')} type="tel" value={values.phone} onChange={(e) => set('phone', e.target.value)} />
          <FieldError id={`${id}-phone-error`} message={errors.phone} />
        </div>
        <div className="field">
          <Label htmlFor={`${id}-mailchimpTags`}>Mailchimp Tags</Label>
          <Input
            {...field('mailchimpTags')}
            value={values.mailchimpTags}
            onChange={(e) => set('mailchimpTags', e.target.value)}
            placeholder="newsletter, runner, vip"
          />
          <p className="muted attachments-hint">Separate tags with commas</p>
          <FieldError id={`${id}-mailchimpTags-error`} message={errors.mailchimpTags} />
        </div>
      </div>
      <div className="field">
        <Label htmlFor={`${id}-notes`}>Notes</Label>
        <Textarea {...field('notes')} rows={4} value={values.notes} onChange={(e) => set('notes', e.target.value)} />
        <FieldError id={`${id}-notes-error`} message={errors.notes} />
      </div>
      <div className="field checkbox-row">
        <input id={`${id}-isPrimary`} type="checkbox" checked={values.isPrimary} onChange={(e) => set('isPrimary', e.target.checked)} />
        <label htmlFor={`${id}-isPrimary`}>Primary contact</label>
      </div>
      <div className="form-actions">
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving...' : contact ? 'Update Contact' : 'Create Contact'}
        </Button>
        <Button variant="outline" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
