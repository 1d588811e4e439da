/** Whether a payment is past due on `today`: marked overdue, or still pending with a payment date before today. */
export const isPastDue = (payment: { invoiceStatus: string; paymentDate: string | null }, today: string): boolean =>
  payment.invoiceStatus === 'overdue' ||
  (payment.invoiceStatus === 'pending' && payment.paymentDate !== null && payment.paymentDate < today);
