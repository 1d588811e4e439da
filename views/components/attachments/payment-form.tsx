import { useId } from 'react';
import type { RecordType } from '@shared/record-types.js';
import { INVOICE_STATUS_LABELS } from '@shared/labels.js';
import { INVOICE_STATUSES } from '@shared/choices.js';
import type { Payment } from '@shared/schemas/attachments.js';
import { formCheck } from '@views/hooks/form-check.js';
import { Button, FieldError, Input, Label, Textarea } from '../ui/primitives.js';
import { paymentBody } from './actions.js';
import { PostedForm } from './contact-form.js';
import { useCheckedSubmit } from './use-checked-submit.js';

/** The payment form's check: the schema the API parses payments with, loaded as the form shows. */
const paymentCheck = formCheck(() => import('@shared/schemas/payments.js').then((schemas) => schemas.PaymentInputSchema));

type TextField = 'description' | 'amount' | 'paymentType' | 'paymentDate' | 'startDate' | 'endDate' | 'invoiceNumber' | 'paymentMethod';

/**
 * The Add/Edit Payment form of the dialog: it posts the detail page's `save-payment` intent through a fetcher
 * (views/components/attachments/actions.ts) and calls `onClose` once saved or cancelled.
 */
export function PaymentForm({
  ownerType,
  ownerId,
  payment,
  onClose,
}: {
  ownerType: RecordType;
  ownerId: number;
  payment: Payment | null;
  onClose(): void;
}) {
  const id = useId();
  const form = useCheckedSubmit(paymentCheck, paymentBody, onClose);
  const { errors, pending } = form;

  const text = (name: TextField, label: string, options: { required?: boolean; type?: string; inputMode?: 'decimal' } = {}) => (
    <div className="field">
      <Label htmlFor={`${id}-${name}`} required={options.required}>
        {label}
      </Label>
      <Input
        id={`${id}-${name}`}
        type={options.type ?? 'text'}
        inputMode={options.inputMode}
        name={name}
        defaultValue={payment?.[name] ?? ''}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${id}-${name}-error` : undefined}
      />
      <FieldError id={`${id}-${name}-error`} message={errors[name]} />
    </div>
  );

  return (
    <PostedForm form={form} version={payment?.updatedAt} closeDialog={onClose}>
      <input type="hidden" name="intent" value="save-payment" />
      {payment && <input type="hidden" name="id" value={payment.id} />}
      <input type="hidden" name="entityType" value={ownerType} />
      <input type="hidden" name="entityId" value={ownerId} />
      <div className="form-grid">
        {text('description', 'Description', { required: true })}
        {text('amount', 'Amount', { required: true, inputMode: 'decimal' })}
        {text('paymentType', 'Payment Type')}
        <div className="field">
          <Label htmlFor={`${id}-invoiceStatus`}>Invoice Status</Label>
          <select id={`${id}-invoiceStatus`} name="invoiceStatus" className="input" defaultValue={payment?.invoiceStatus ?? 'pending'}>
            {INVOICE_STATUSES.map((status) => (
              <option key={status} value={status}>
                {INVOICE_STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </div>
        {text('paymentDate', 'Payment Date', { type: 'date' })}
        {text('invoiceNumber', 'Invoice Number')}
        {text('startDate', 'Start Date', { type: 'date' })}
        {text('endDate', 'End Date', { type: 'date' })}
        {text('paymentMethod', 'Payment Method')}
      </div>
      <div className="field">
        <Label htmlFor={`${id}-notes`}>Notes</Label>
        <Textarea id={`${id}-notes`} name="notes" rows={4} defaultValue={payment?.notes ?? ''} />
      </div>
      <div className="form-actions">
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving...' : payment ? 'Update Payment' : 'Add Payment'}
        </Button>
        <Button variant="outline" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
      </div>
    </PostedForm>
  );
}
