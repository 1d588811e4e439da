import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLoaderData } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContactsCard, PaymentsCard, type Contact, type Payment } from '@views/components/attachments/index.js';
import { action as brandDetailAction } from '@views/pages/brands/detail-page.js';
import { json, stubFetch, type FetchCall } from './attachments-fetch-stub.js';
import { findToast, renderPage } from './records-render.js';

/** Issue 13, point 6, in the brand detail page's contact and payment dialogs. */

const opened = '2026-11-01T00:00:00.000Z';
const theirVersion = '2026-11-02T09:30:00.000Z';
const conflictMessage = (noun: string) =>
  `This ${noun} was changed by Anna Lee at ${theirVersion} after you opened it. Reload to see their change, or save again to overwrite it.`;

const payment = (overrides: Partial<Payment> = {}): Payment => ({
  id: 11,
  entityType: 'brand',
  entityId: 3,
  paymentType: 'Advertising',
  description: 'Spring banner',
  amount: '1200.50',
  paymentDate: null,
  startDate: null,
  endDate: null,
  invoiceNumber: null,
  invoiceStatus: 'pending',
  paymentMethod: null,
  notes: null,
  createdAt: opened,
  updatedAt: opened,
  createdBy: 1,
  ...overrides,
});

const contact = (overrides: Partial<Contact> = {}): Contact => ({
  id: 5,
  firstName: 'Jane',
  lastName: 'Doe',
  jobTitle: 'Race director',
  email: null,
  phone: null,
  notes: null,
  mailchimpTags: [],
  entityType: 'brand',
  entityId: 3,
  isPrimary: false,
  createdAt: opened,
  updatedAt: opened,
  createdBy: 1,
  ...overrides,
});

afterEach(() => vi.unstubAllGlobals());

/** A PUT carrying a version other than theirs is stale; anything else (their version, or none) saves. */
const staleUnlessTheirs = (noun: string, saved: unknown) => (call: FetchCall) => {
  const version = (call.body as { version?: string }).version;
  return version === undefined || version === theirVersion
    ? json(saved)
    : json({ code: 'edit_conflict', message: conflictMessage(noun) }, 409);
};
const puts = (calls: FetchCall[]) => calls.filter((call) => call.method === 'PUT').map((call) => call.body as Record<string, unknown>);

describe('the payment dialog', () => {
  const theirs = payment({ invoiceStatus: 'paid', updatedAt: theirVersion });
  let current = payment();
  /** The payments card of a page whose loader reads the payments as they are now. */
  const renderCard = () =>
    renderPage({
      path: '/brands/:id',
      url: '/brands/3',
      data: { payments: [current] },
      loader: () => ({ payments: [current] }),
      Component: () => {
        const { payments } = useLoaderData() as { payments: Payment[] };
        return <PaymentsCard ownerType="brand" ownerId={3} payments={payments} total="1200.50" />;
      },
      action: brandDetailAction,
    });

  async function conflictAfterTyping() {
    current = payment();
    const calls = stubFetch((call) =>
      call.method === 'PUT' ? staleUnlessTheirs('payment', theirs)(call) : new Response(null, { status: 204 }),
    );
    renderCard();
    current = theirs; // Anna saved meanwhile.
    fireEvent.click(screen.getByRole('button', { name: 'Edit payment Spring banner' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/Amount/), { target: { value: '999.00' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update Payment' }));
    await within(dialog).findByText(conflictMessage('payment'));
    return { calls, dialog };
  }

  it('sends its version; a conflict keeps what was typed, and Save anyway overwrites', async () => {
    const { calls, dialog } = await conflictAfterTyping();
    expect(puts(calls)[0]).toMatchObject({ amount: '999.00', version: opened });
    expect((within(dialog).getByLabelText(/Amount/) as HTMLInputElement).value).toBe('999.00');
    expect(screen.getByRole('dialog')).toBe(dialog);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Save anyway' }));
    await findToast('Payment updated successfully');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // No single-payment read exists, so the deliberate overwrite carries no version.
    expect(puts(calls)[1]).toMatchObject({ amount: '999.00' });
    expect(puts(calls)[1]).not.toHaveProperty('version');
  });

  it('Reload closes the dialog and shows the other change; editing again starts from it', async () => {
    const { calls, dialog } = await conflictAfterTyping();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await screen.findByText('Paid');
    fireEvent.click(screen.getByRole('button', { name: 'Edit payment Spring banner' }));
    const again = await screen.findByRole('dialog');
    expect((within(again).getByLabelText(/Amount/) as HTMLInputElement).value).toBe('1200.50');
    expect((within(again).getByLabelText('Invoice Status') as HTMLSelectElement).value).toBe('paid');
    expect(within(again).queryByText(conflictMessage('payment'))).toBeNull();
    fireEvent.click(within(again).getByRole('button', { name: 'Update Payment' }));
    await findToast('Payment updated successfully');
    expect(puts(calls)[1]).toMatchObject({ invoiceStatus: 'paid', version: theirVersion });
  });
});

describe('the contact dialog', () => {
  it('sends its version; a conflict keeps what was typed, and Save anyway carries the current version', async () => {
    const theirs = contact({ jobTitle: 'Director', updatedAt: theirVersion });
    const calls = stubFetch((call) => {
      if (call.method === 'PUT') return staleUnlessTheirs('contact', theirs)(call);
      // The dialog reads the contact as the contact page does (with its owner) to learn the current version.
      if (call.url.split('?')[0] === '/api/contacts/5') return json(theirs);
      return new Response(null, { status: 204 });
    });
    renderPage({
      path: '/brands/:id',
      url: '/brands/3',
      Component: () => <ContactsCard ownerType="brand" ownerId={3} contacts={[contact()]} />,
      action: brandDetailAction,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Edit Jane Doe' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Job Title'), { target: { value: 'Owner' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update Contact' }));
    await within(dialog).findByText(conflictMessage('contact'));
    expect(puts(calls)[0]).toMatchObject({ jobTitle: 'Owner', version: opened });
    expect((within(dialog).getByLabelText('Job Title') as HTMLInputElement).value).toBe('Owner');
    expect(within(dialog).getByRole('button', { name: 'Reload' })).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Save anyway' }));
    await findToast('Contact updated successfully');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(puts(calls)[1]).toMatchObject({ jobTitle: 'Owner', version: theirVersion });
  });
});
