import { useCanWrite, useSession } from '@views/hooks/use-session.js';
import { useCallback, useState } from 'react';
import type { RecordType } from '@shared/record-types.js';
import { INVOICE_STATUS_LABELS, labelOf, valueLabel } from '@shared/labels.js';
import { useFormat } from '@views/hooks/use-format.js';
import { deleteFields } from '../records/delete-fields.js';
import { ConfirmDeleteButton, useDeleteRecord } from '../records/delete-dialog.js';
import { Badge, Button, Card, CardHeader } from '../ui/primitives.js';
import type { Payment } from '@shared/schemas/attachments.js';
import { dayInZone } from '@shared/format.js';
import { isPastDue } from '@shared/payment-due.js';
import { useDialogPrimitive } from '../ui/dialog.js';
import { useLoadedAfterHydration } from '@views/hooks/use-loaded-after-hydration.js';

const loadPaymentForm = () => import('./payment-form.js');

const STATUS_TONES: Record<string, 'success' | 'warning' | 'danger' | 'muted'> = {
  paid: 'success',
  pending: 'warning',
  overdue: 'danger',
  cancelled: 'muted',
};

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
  // Past due is judged on today's date where the user is (the zone the pages format dates in).
  const today = dayInZone(new Date(), useSession().timeZone);
  const [dialog, setDialog] = useState<{ open: boolean; payment: Payment | null }>({ open: false, payment: null });
  const setDialogOpen = useCallback((open: boolean) => setDialog((current) => ({ ...current, open })), []);
  const Dialog = useDialogPrimitive();
  // The form loads with the dialog, after hydration: the card shows without it.
  const paymentForm = useLoadedAfterHydration(loadPaymentForm);
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
              {isPastDue(payment, today) ? (
                <Badge tone="danger">Overdue</Badge>
              ) : (
                <Badge tone={STATUS_TONES[payment.invoiceStatus] ?? 'default'}>
                  {labelOf(INVOICE_STATUS_LABELS, payment.invoiceStatus)}
                </Badge>
              )}
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
      {Dialog && paymentForm && (
        <Dialog.Root open={dialog.open} onOpenChange={setDialogOpen}>
          <Dialog.Portal>
            <Dialog.Overlay className="dialog-overlay" />
            <Dialog.Content className="dialog attachments-dialog" aria-describedby={undefined}>
              <Dialog.Title className="dialog-title">{dialog.payment ? 'Edit Payment' : 'Add Payment'}</Dialog.Title>
              <paymentForm.PaymentForm
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
