import { useCanWrite } from '@views/hooks/use-session.js';
import { useCallback, useId, useState } from 'react';
import type { RecordType } from '@shared/record-types.js';
import { INVOICE_STATUS_LABELS, labelOf, valueLabel } from '@shared/labels.js';
import { formCheck } from '@views/hooks/form-check.js';
import { INVOICE_STATUSES } from '@shared/choices.js';
import { useFormat } from '@views/hooks/use-format.js';
import { deleteFields } from '../records/actions.js';
import { ConfirmDeleteButton, useDeleteRecord } from '../records/delete-dialog.js';
import { Badge, Button, Card, CardHeader, FieldError, Input, Label, Textarea } from '../ui/primitives.js';
import { paymentBody } from './actions.js';
import { PostedForm } from './contact-form.js';
import type { Payment } from '@shared/schemas/attachments.js';
import { useCheckedSubmit } from './use-checked-submit.js';
import { useDialogPrimitive } from '../ui/dialog.js';

/** The payment form's check: the schema the API parses payments with, loaded as the form shows. */
const paymentCheck = formCheck(() => import('@shared/schemas/payments.js').then((schemas) => schemas.PaymentInputSchema));

type TextField = 'description' | 'amount' | 'paymentType' | 'paymentDate' | 'startDate' | 'endDate' | 'invoiceNumber' | 'paymentMethod';

const STATUS_TONES: Record<string, 'success' | 'warning' | 'danger' | 'muted'> = {
  paid: 'success',
  pending: 'warning',
  overdue: 'danger',
  cancelled: 'muted',
};

/**
 * The Add/Edit Payment form of the dialog: it posts the detail page's `save-payment` intent through a fetcher
 * (views/components/attachments/actions.ts) and calls `onClose` once saved or cancelled.
 */
function PaymentForm({
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

/** A record's payments with their exact total; add, edit and delete in a dialog. */
export function PaymentsCard({
  ownerType,
  ownerId,
  payments,
  total,
}: {
  ownerType: RecordType;
  ownerId: number;
  payments: Payment[];
  total: string;
}) {
  const format = useFormat();
  const [dialog, setDialog] = useState<{ open: boolean; payment: Payment | null }>({ open: false, payment: null });
  const setDialogOpen = useCallback((open: boolean) => setDialog((current) => ({ ...current, open })), []);
  const Dialog = useDialogPrimitive();
  const closeDialog = useCallback(() => setDialogOpen(false), [setDialogOpen]);
  // Posts the detail page's `delete-payment` intent; the page's action deletes and its loader reads the list again.
  const deletePayment = useDeleteRecord('delete-payment');
  const canWrite = useCanWrite();

  return (
    <Card className="attachments-card">
      <CardHeader
        title={`Payments (${payments.length})`}
        actions={canWrite && <Button onClick={() => setDialog({ open: true, payment: null })}>Add Payment</Button>}
      />
      <p className="attachments-total">
        Total: <strong data-testid="payments-total">{format.money(total)}</strong>
      </p>
      {payments.length === 0 ? (
        <p className="muted">No payments recorded yet</p>
      ) : (
        <ul className="attachments-list">
          {payments.map((payment) => (
            <li key={payment.id} className="attachments-row">
              <div className="attachments-contact-main">
                <span className="attachments-contact-name">{payment.description}</span>
                <span className="muted">
                  {[
                    payment.paymentDate && format.date(payment.paymentDate),
                    payment.paymentType && valueLabel(payment.paymentType),
                    payment.invoiceNumber && `Invoice ${payment.invoiceNumber}`,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </div>
              <Badge tone={STATUS_TONES[payment.invoiceStatus] ?? 'default'}>{labelOf(INVOICE_STATUS_LABELS, payment.invoiceStatus)}</Badge>
              <strong className="attachments-amount">{format.money(payment.amount)}</strong>
              <div className="card-actions">
                {canWrite && (
                  <Button
                    variant="outline"
                    className="btn-sm"
                    onClick={() => setDialog({ open: true, payment })}
                    aria-label={`Edit payment ${payment.description}`}
                  >
                    Edit
                  </Button>
                )}
                <ConfirmDeleteButton
                  small
                  ariaLabel={`Delete payment ${payment.description}`}
                  menuFor={`payment ${payment.description}`}
                  question="Are you sure you want to delete this payment?"
                  postFields={deleteFields(payment.id, false, 'delete-payment')}
                  onConfirm={() => deletePayment(payment.id)}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
      {Dialog && (
      <Dialog.Root open={dialog.open} onOpenChange={setDialogOpen}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog attachments-dialog" aria-describedby={undefined}>
            <Dialog.Title className="dialog-title">{dialog.payment ? 'Edit Payment' : 'Add Payment'}</Dialog.Title>
            <PaymentForm
              key={dialog.payment?.id ?? 'new'}
              ownerType={ownerType}
              ownerId={ownerId}
              payment={dialog.payment}
              onClose={closeDialog}
            />
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      )}
    </Card>
  );
}
