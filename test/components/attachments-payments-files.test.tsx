import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FilesCard, PaymentsCard, type Payment, type StoredFile } from '@views/components/attachments/index.js';
import { fileSizeText } from '@views/components/attachments/files-card.js';
import { action as brandDetailAction } from '@views/pages/brands/detail-page.js';
import { action as eventDetailAction } from '@views/pages/events/detail-page.js';
import { findToast, renderPage } from './records-render.js';
import { json, stubFetch } from './attachments-fetch-stub.js';

const payment = (overrides: Partial<Payment> = {}): Payment => ({
  id: 11,
  entityType: 'brand',
  entityId: 3,
  paymentType: 'Advertising',
  description: 'Spring banner',
  amount: '1200.50',
  paymentDate: '2026-10-01',
  startDate: null,
  endDate: null,
  invoiceNumber: 'INV-1',
  invoiceStatus: 'paid',
  paymentMethod: null,
  notes: null,
  createdAt: '2026-10-01T00:00:00.000Z',
  updatedAt: '2026-10-01T00:00:00.000Z',
  createdBy: 1,
  ...overrides,
});

const storedFile = (overrides: Partial<StoredFile> = {}): StoredFile => ({
  id: 21,
  entityType: 'event',
  entityId: 7,
  fileName: '0b7e8f3a-0000-4000-8000-000000000001.png',
  originalName: 'finish.png',
  fileType: 'image/png',
  fileSize: 2048,
  fileCategory: 'image',
  description: null,
  uploadedAt: '2026-11-01T00:00:00.000Z',
  uploadedBy: 1,
  url: '/api/uploads/21',
  ...overrides,
});

async function toastSays(title: string, description?: string) {
  await waitFor(() => {
    const toast = screen.getByTestId('toast');
    expect(toast.querySelector('.toast-title')?.textContent).toBe(title);
    if (description !== undefined) expect(toast.querySelector('.toast-description')?.textContent).toBe(description);
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('PaymentsCard', () => {
  it('badges a pending payment whose date has passed Overdue, and leaves a future one Pending', () => {
    stubFetch(() => json({}));
    renderPage({
      path: '/brands/:id',
      url: '/brands/3',
      Component: () => (
        <PaymentsCard
          ownerType="brand"
          ownerId={3}
          payments={[
            payment({ id: 1, description: 'Late banner', invoiceStatus: 'pending', paymentDate: '2020-01-01' }),
            payment({ id: 2, description: 'Future slot', invoiceStatus: 'pending', paymentDate: '2999-01-01' }),
            payment({ id: 3, description: 'Old paid', invoiceStatus: 'paid', paymentDate: '2020-01-01' }),
          ]}
          total="3601.50"
        />
      ),
      action: brandDetailAction,
    });
    const badgeOf = (description: string) => screen.getByText(description).closest('li')!.querySelector('.badge')!;
    expect(badgeOf('Late banner').textContent).toBe('Overdue');
    expect(badgeOf('Late banner').className).toBe('badge badge-danger');
    expect(badgeOf('Future slot').textContent).toBe('Pending');
    expect(badgeOf('Old paid').textContent).toBe('Paid');
  });

  it('lists payments with the exact total, adds one through the dialog after validating it', async () => {
    const calls = stubFetch(() => json(payment({ id: 12 }), 201));
    const pageLoader = vi.fn(() => null);
    renderPage({
      loader: pageLoader,
      path: '/brands/:id',
      url: '/brands/3',
      Component: () => <PaymentsCard ownerType="brand" ownerId={3} payments={[payment()]} total="1200.50" />,
      action: brandDetailAction,
    });
    expect(screen.getByText('Payments (1)')).toBeTruthy();
    expect(screen.getByTestId('payments-total').textContent).toBe('$1,200.50');
    expect(screen.getByText('Spring banner')).toBeTruthy();
    expect(screen.getByText('Paid')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Add Payment' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Payment' }));
    expect(await within(dialog).findByText('Description is required')).toBeTruthy();
    expect(within(dialog).getByText('Amount is required')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/Description/), { target: { value: 'Newsletter slot' } });
    fireEvent.change(within(dialog).getByLabelText(/Amount/), { target: { value: '0.20' } });
    fireEvent.change(within(dialog).getByLabelText('Payment Date'), { target: { value: '2026-11-02' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Payment' }));
    await findToast('Payment added successfully');
    expect(calls[0]).toMatchObject({
      url: '/api/payments',
      method: 'POST',
      body: {
        entityType: 'brand',
        entityId: 3,
        description: 'Newsletter slot',
        amount: '0.20',
        paymentDate: '2026-11-02',
        invoiceStatus: 'pending',
      },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Nothing reloads by hand: the page's loader runs again after its action.
    expect(pageLoader).toHaveBeenCalledTimes(1);
  });

  it('edits and deletes a payment', async () => {
    const calls = stubFetch((call) => (call.method === 'PUT' ? json(payment()) : new Response(null, { status: 204 })));
    renderPage({
      path: '/events/:id',
      url: '/events/7',
      Component: () => <PaymentsCard ownerType="event" ownerId={7} payments={[payment()]} total="1200.50" />,
      action: eventDetailAction,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Edit payment Spring banner' }));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText(/Amount/) as HTMLInputElement).value).toBe('1200.50');
    fireEvent.change(within(dialog).getByLabelText('Invoice Status'), { target: { value: 'overdue' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update Payment' }));
    await findToast('Payment updated successfully');
    expect(calls[0]).toMatchObject({
      url: '/api/payments/11',
      method: 'PUT',
      body: { invoiceStatus: 'overdue', entityType: 'event', entityId: 7 },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Delete payment Spring banner' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await findToast('Payment deleted successfully');
  });

  it('shows an empty state and a zero total', () => {
    renderPage({
      path: '/media/:id',
      url: '/media/1',
      Component: () => <PaymentsCard ownerType="media" ownerId={1} payments={[]} total="0.00" />,
    });
    expect(screen.getByText('No payments recorded yet')).toBeTruthy();
    expect(screen.getByTestId('payments-total').textContent).toBe('$0.00');
  });
});

describe('FilesCard and the Upload Files dialog', () => {
  const files = [
    storedFile(),
    storedFile({
      id: 22,
      originalName: 'course.mp4',
      fileType: 'video/mp4',
      fileCategory: 'video',
      fileSize: 3 * 1024 * 1024,
      url: '/api/uploads/22',
    }),
  ];

  it('shows image thumbnails and video rows with download and delete', async () => {
    stubFetch(() => new Response(null, { status: 204 }));
    renderPage({
      path: '/events/:id',
      url: '/events/7',
      Component: () => <FilesCard ownerType="event" ownerId={7} files={files} />,
      action: eventDetailAction,
    });
    expect(screen.getByRole('img', { name: 'finish.png' }).getAttribute('src')).toBe('/api/uploads/21');
    expect(screen.getByRole('link', { name: 'course.mp4' }).getAttribute('href')).toBe('/api/uploads/22');
    expect(screen.getByText('3.0 MB')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download course.mp4' }).getAttribute('href')).toBe('/api/uploads/22?download=1');
    fireEvent.click(screen.getByRole('button', { name: 'Delete finish.png' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(within(confirm).getByText('Are you sure you want to delete finish.png?')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await findToast('File deleted successfully');
  });

  it("picks several files, adds and removes, reads 'Uploading...' and closes and clears on success", async () => {
    let answer!: (r: Response) => void;
    const calls = stubFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderPage({ path: '/events/:id', url: '/events/7', Component: () => <FilesCard ownerType="event" ownerId={7} files={[]} /> });
    expect(screen.getByText('No files uploaded yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Upload Files' }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText('Choose files') as HTMLInputElement;
    expect(input.multiple).toBe(true);
    expect(input.accept).toContain('image/');
    expect(input.accept).toContain('video/');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await toastSays('Error', 'Please select at least one file');
    expect(calls).toHaveLength(0);

    const a = new File(['a'], 'a.png', { type: 'image/png' });
    const b = new File(['bb'], 'b.jpg', { type: 'image/jpeg' });
    const c = new File(['ccc'], 'c.gif', { type: 'image/gif' });
    fireEvent.change(input, { target: { files: [a, b] } });
    fireEvent.change(input, { target: { files: [c] } });
    expect(
      within(dialog)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toHaveLength(3);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove b.jpg' }));
    expect(within(dialog).queryByText('b.jpg')).toBeNull();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload 2 Files' }));
    expect(await within(dialog).findByRole('button', { name: 'Uploading...' })).toBeTruthy();
    const form = calls[0]!.body as FormData;
    expect(calls[0]).toMatchObject({ url: '/api/upload', method: 'POST' });
    expect(form.get('entityType')).toBe('event');
    expect(form.get('entityId')).toBe('7');
    expect((form.getAll('files') as File[]).map((f) => f.name)).toEqual(['a.png', 'c.gif']);
    await act(async () => answer(json({ files: [] }, 201)));
    await findToast('Files uploaded successfully');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Upload Files' }));
    expect(within(await screen.findByRole('dialog')).queryByRole('listitem')).toBeNull();
  });

  it("shows the server's message, else 'Failed to upload files', and keeps the selection", async () => {
    stubFetch(() => json({ message: 'File x.png is not a supported format', code: 'bad_request' }, 400));
    renderPage({ path: '/brands/:id', url: '/brands/3', Component: () => <FilesCard ownerType="brand" ownerId={3} files={[]} /> });
    fireEvent.click(screen.getByRole('button', { name: 'Upload Files' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Choose files'), {
      target: { files: [new File(['<html>'], 'x.png', { type: 'image/png' })] },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await toastSays('Upload failed', 'File x.png is not a supported format');
    expect(within(dialog).getByText('x.png')).toBeTruthy();
    stubFetch(() => new Response('', { status: 502, statusText: 'Bad Gateway' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await toastSays('Upload failed', 'Failed to upload files');
  });

  it('refuses a file over 10MB before sending it', async () => {
    const calls = stubFetch(() => json({ files: [] }, 201));
    renderPage({ path: '/brands/:id', url: '/brands/3', Component: () => <FilesCard ownerType="brand" ownerId={3} files={[]} /> });
    fireEvent.click(screen.getByRole('button', { name: 'Upload Files' }));
    const dialog = await screen.findByRole('dialog');
    const big = new File(['x'], 'huge.mp4', { type: 'video/mp4' });
    Object.defineProperty(big, 'size', { value: 11 * 1024 * 1024 });
    fireEvent.change(within(dialog).getByLabelText('Choose files'), { target: { files: [big] } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await toastSays('Upload failed', 'File huge.mp4 is too large (max 10MB)');
    expect(calls).toHaveLength(0);
  });

  it('formats sizes the same everywhere', () => {
    expect([fileSizeText(null), fileSizeText(512), fileSizeText(2048), fileSizeText(10 * 1024 * 1024)]).toEqual([
      '',
      '512 B',
      '2.0 KB',
      '10.0 MB',
    ]);
  });
});
