import * as Dialog from '@radix-ui/react-dialog';
import { useId, useState, type FormEvent } from 'react';
import { useRevalidator } from 'react-router';
import type { RecordType } from '../../../src/shared/record-types.js';
import { messageOf } from '../../../src/shared/api-error.js';
import { INVOICE_STATUSES, PaymentInputSchema, type PaymentFormBody } from '../../../src/shared/schemas/payments.js';
import { apiRequest } from '../../data/http.js';
import { useFormat } from '../../hooks/use-format.js';
import { ConfirmDeleteButton } from '../records/delete-dialog.js';
import { Badge, Button, Card, CardHeader, FieldError, Input, Label, Textarea } from '../ui/primitives.js';
import { toast } from '../ui/toast.js';
import type { Payment } from '../../../src/shared/schemas/attachments.js';
import { useCheckedSubmit } from './use-checked-submit.js';

const TEXT_FIELDS = ['description', 'amount', 'paymentType', 'paymentDate', 'startDate', 'endDate', 'invoiceNumber', 'paymentMethod', 'notes'] as const;
type TextField = (typeof TEXT_FIELDS)[number];
type PaymentValues = Record<TextField, string> & { invoiceStatus: string };

function initialValues(payment: Payment | null): PaymentValues {
  const values = { invoiceStatus: payment?.invoiceStatus ?? 'pending' } as PaymentValues;
  for (const name of TEXT_FIELDS) values[name] = payment?.[name] ?? '';
  return values;
}

const STATUS_TONES: Record<string, 'success' | 'warning' | 'danger' | 'muted'> = { paid: 'success', pending: 'warning', overdue: 'danger', cancelled: 'muted' };
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function PaymentForm({
  ownerType,
  ownerId,
  payment,
  onDone,
}: {
  ownerType: RecordType;
  ownerId: number;
  payment: Payment | null;
  onDone(saved: boolean): void;
}) {
  const id = useId();
  const [values, setValues] = useState(() => initialValues(payment));
  const { errors, pending, submit: check } = useCheckedSubmit(PaymentInputSchema, async (body: PaymentFormBody) => {
    try {
      if (payment) await apiRequest('PUT', `/api/payments/${payment.id}`, body);
      else await apiRequest('POST', '/api/payments', body);
    } catch (error) {
      toast({ title: 'Error', description: messageOf(error, payment ? 'Failed to update payment' : 'Failed to add payment'), variant: 'destructive' });
      return;
    }
    toast({ title: payment ? 'Payment updated successfully' : 'Payment added successfully' });
    onDone(true);
  });
  const set = (name: keyof PaymentValues, value: string) => setValues((current) => ({ ...current, [name]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    await check({ ...values, entityType: ownerType, entityId: ownerId });
  }

  const text = (name: TextField, label: string, options: { required?: boolean; type?: string; inputMode?: 'decimal' } = {}) => (
    <div className="field">
      <Label htmlFor={`${id}-${name}`} required={options.required}>
        {label}
      </Label>
      <Input
        id={`${id}-${name}`}
        type={options.type ?? 'text'}
        inputMode={options.inputMode}
        value={values[name]}
        onChange={(e) => set(name, e.target.value)}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${id}-${name}-error` : undefined}
      />
      <FieldError id={`${id}-${name}-error`} message={errors[name]} />
    </div>
  );

  return (
    <form className="attachments-form" onSubmit={(event) => void submit(event)} noValidate>
      <div className="form-grid">
        {text('description', 'Description', { required: true })}
        {text('amount', 'Amount', { required: true, inputMode: 'decimal' })}
        {text('paymentType', 'Payment Type')}
        <div className="field">
          <Label htmlFor={`${id}-invoiceStatus`}>Invoice Status</Label>
          <select id={`${id}-invoiceStatus`} className="input" value={values.invoiceStatus} onChange={(e) => set('invoiceStatus', e.target.value)}>
            {INVOICE_STATUSES.map((status) => (
              <option key={status} value={status}>
                {capitalise(status)}
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
        <Textarea id={`${id}-notes`} rows={4} value={values.notes} onChange={(e) => set('notes', e.target.value)} />
      </div>
      <div className="form-actions">
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving...' : payment ? 'Update Payment' : 'Add Payment'}
        </Button>
        <Button variant="outline" onClick={() => onDone(false)} disabled={pending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** A record's payments with their exact total; add, edit and delete in a dialog. */
export function PaymentsCard({ ownerType, ownerId, payments, total }: { ownerType: RecordType; ownerId: number; payments: Payment[]; total: string }) {
  const format = useFormat();
  const revalidator = useRevalidator();
  const [dialog, setDialog] = useState<{ open: boolean; payment: Payment | null }>({ open: false, payment: null });

  async function remove(payment: Payment) {
    try {
      await apiRequest('DELETE', `/api/payments/${payment.id}`);
    } catch (error) {
      toast({ title: 'Error', description: messageOf(error, 'Failed to delete payment'), variant: 'destructive' });
      return;
    }
    toast({ title: 'Payment deleted successfully' });
    await revalidator.revalidate();
  }

  return (
    <Card className="attachments-card">
      <CardHeader title={`Payments (${payments.length})`} actions={<Button onClick={() => setDialog({ open: true, payment: null })}>Add Payment</Button>} />
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
                  {[payment.paymentDate && format.date(payment.paymentDate), payment.paymentType, payment.invoiceNumber && `Invoice ${payment.invoiceNumber}`]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </div>
              <Badge tone={STATUS_TONES[payment.invoiceStatus] ?? 'default'}>{capitalise(payment.invoiceStatus)}</Badge>
              <strong className="attachments-amount">{format.money(payment.amount)}</strong>
              <div className="card-actions">
                <Button variant="outline" className="btn-sm" onClick={() => setDialog({ open: true, payment })} aria-label={`Edit payment ${payment.description}`}>
                  Edit
                </Button>
                <ConfirmDeleteButton
                  small
                  ariaLabel={`Delete payment ${payment.description}`}
                  question="Are you sure you want to delete this payment?"
                  onConfirm={() => remove(payment)}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
      <Dialog.Root open={dialog.open} onOpenChange={(open) => setDialog((current) => ({ ...current, open }))}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog attachments-dialog" aria-describedby={undefined}>
            <Dialog.Title className="dialog-title">{dialog.payment ? 'Edit Payment' : 'Add Payment'}</Dialog.Title>
            <PaymentForm
              key={dialog.payment?.id ?? 'new'}
              ownerType={ownerType}
              ownerId={ownerId}
              payment={dialog.payment}
              onDone={(saved) => {
                setDialog((current) => ({ ...current, open: false }));
                if (saved) void revalidator.revalidate();
              }}
            />
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </Card>
  );
}
