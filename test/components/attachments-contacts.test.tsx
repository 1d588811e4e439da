import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContactsCard, ContactsTab, type Contact } from '@views/components/attachments/index.js';
import { action as brandDetailAction } from '@views/pages/brands/detail-page.js';
import * as detailPage from '@views/pages/contacts/contact-detail-page.js';
import * as editPage from '@views/pages/contacts/contact-edit-page.js';
import * as ownerPage from '@views/pages/contacts/owner-contact-page.js';
import { action as eventDetailAction } from '@views/pages/events/detail-page.js';
import { findToast, renderPage } from './records-render.js';
import { json, stubFetch } from './attachments-fetch-stub.js';

const contact = (overrides: Partial<Contact> = {}): Contact => ({
  id: 5,
  firstName: 'Jane',
  lastName: 'Doe',
  jobTitle: 'Race director',
  email: 'jane@example.org',
  phone: '+61 (400) 111 222',
  notes: 'Call after 5pm',
  mailchimpTags: ['runners', 'vip'],
  entityType: 'event',
  entityId: 7,
  isPrimary: true,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  createdBy: 1,
  ...overrides,
});

/** The contact as the contact pages' loaders give it: with its owner by name. */
const contactOfEvent = (overrides: Partial<Contact> = {}) => ({
  ...contact(overrides),
  owner: { type: 'event' as const, id: 7, name: 'Sydney Harbour Half Marathon' },
});

/** The "Contact of …" line: its text and where its link leads. */
function contactOfLine() {
  const line = screen.getByTestId('contact-of');
  return { text: line.textContent, href: within(line).getByRole('link').getAttribute('href') };
}

afterEach(() => vi.unstubAllGlobals());

/** The toast store outlives a test, so wait for the toast whose title and description both match. */
async function toastSays(title: string, description: string) {
  await waitFor(() => {
    const toast = screen.getByTestId('toast');
    expect(toast.querySelector('.toast-title')?.textContent).toBe(title);
    expect(toast.querySelector('.toast-description')?.textContent).toBe(description);
  });
}

describe('ContactsTab', () => {
  const Tab = () => (
    <ContactsTab
      ownerType="event"
      ownerId={7}
      contacts={[contact(), contact({ id: 6, firstName: 'Al', lastName: 'Bo', isPrimary: false, email: null, phone: null, notes: null })]}
    />
  );

  it('shows each contact with a primary badge, mailto and tel links, notes, and links to add, edit and the contact page', () => {
    renderPage({ path: '/events/:id', url: '/events/7?tab=contacts', Component: Tab });
    expect(screen.getByText('Primary')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'jane@example.org' }).getAttribute('href')).toBe('mailto:jane@example.org');
    expect(screen.getByRole('link', { name: '+61 (400) 111 222' }).getAttribute('href')).toBe('tel:+61400111222');
    expect(screen.getByText('Call after 5pm')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add Contact' }).getAttribute('href')).toBe('/events/7/contacts/add');
    expect(screen.getByRole('link', { name: 'Edit Jane Doe' }).getAttribute('href')).toBe('/events/7/contacts/5/edit');
    expect(screen.getByRole('link', { name: 'Jane Doe' }).getAttribute('href')).toBe(
      `/contacts/5?return=${encodeURIComponent('/events/7?tab=contacts')}`,
    );
  });

  it('opens the contact when its card is clicked', async () => {
    const { router } = renderPage({ path: '/events/:id', url: '/events/7', Component: Tab });
    fireEvent.click(screen.getAllByText('Race director')[0]!);
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/contacts/5?return=%2Fevents%2F7'));
  });

  it("asks 'Are you sure you want to delete {name}? This action cannot be undone.' and deletes", async () => {
    const calls = stubFetch();
    renderPage({ path: '/events/:id', url: '/events/7', Component: Tab, action: eventDetailAction });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Jane Doe' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Are you sure you want to delete Jane Doe? This action cannot be undone.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await findToast('Contact deleted successfully.');
    expect(calls[0]).toMatchObject({ url: '/api/contacts/5', method: 'DELETE' });
  });

  it("shows 'Failed to delete contact.' (title Error) or the server's message when the delete fails", async () => {
    stubFetch(() => new Response('', { status: 500, statusText: 'Server Error' }));
    renderPage({ path: '/events/:id', url: '/events/7', Component: Tab, action: eventDetailAction });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Al Bo' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await toastSays('Error', 'Failed to delete contact.');
  });
});

describe('ContactsCard', () => {
  it("offers 'Add First Contact' when empty, validates, creates through the dialog and says 'Contact added successfully'", async () => {
    let answer!: (r: Response) => void;
    const calls = stubFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    const pageLoader = vi.fn(() => null);
    renderPage({
      path: '/brands/:id',
      url: '/brands/3',
      Component: () => <ContactsCard ownerType="brand" ownerId={3} contacts={[]} />,
      action: brandDetailAction,
      loader: pageLoader,
    });
    expect(screen.getByText('No contacts added yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add First Contact' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Add Contact')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Contact' }));
    expect(await within(dialog).findByText('First name is required')).toBeTruthy();
    expect(within(dialog).getByText('Last name is required')).toBeTruthy();
    expect(calls).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(/First Name/), { target: { value: 'Kim' } });
    fireEvent.change(within(dialog).getByLabelText(/Last Name/), { target: { value: 'Lee' } });
    fireEvent.change(within(dialog).getByLabelText('Mailchimp Tags'), { target: { value: 'a, b,,a' } });
    expect(within(dialog).getByLabelText('Notes').getAttribute('rows')).toBe('4');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Contact' }));
    expect(await within(dialog).findByRole('button', { name: 'Saving...' })).toBeTruthy();
    expect(calls[0]).toMatchObject({
      url: '/api/contacts',
      method: 'POST',
      body: { firstName: 'Kim', lastName: 'Lee', entityType: 'brand', entityId: 3, mailchimpTags: 'a, b,,a', isPrimary: false },
    });
    await act(async () => answer(json({ ...contact(), id: 9 }, 201)));
    await findToast('Contact added successfully');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Nothing reloads by hand: the page's loader runs again after its action.
    expect(pageLoader).toHaveBeenCalledTimes(1);
  });

  it("shows 'Failed to add contact' or the server's message", async () => {
    stubFetch(() => json({ message: 'Brand not found', code: 'not_found' }, 404));
    renderPage({
      path: '/brands/:id',
      url: '/brands/3',
      Component: () => <ContactsCard ownerType="brand" ownerId={3} contacts={[]} />,
      action: brandDetailAction,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add First Contact' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/First Name/), { target: { value: 'Kim' } });
    fireEvent.change(within(dialog).getByLabelText(/Last Name/), { target: { value: 'Lee' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Contact' }));
    await toastSays('Error', 'Brand not found');
  });

  it('edits a brand contact in the dialog and deletes with the short question and toast', async () => {
    const calls = stubFetch((call) =>
      call.method === 'PUT' ? json(contact({ entityType: 'brand', entityId: 3 })) : new Response(null, { status: 204 }),
    );
    const brandContact = contact({ entityType: 'brand', entityId: 3, isPrimary: false });
    renderPage({
      path: '/brands/:id',
      url: '/brands/3',
      Component: () => <ContactsCard ownerType="brand" ownerId={3} contacts={[brandContact]} />,
      action: brandDetailAction,
    });
    expect(screen.getByText('Contacts (1)')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Jane Doe' }).getAttribute('href')).toBe('/contacts/5?return=%2Fbrands%2F3');
    fireEvent.click(screen.getByRole('button', { name: 'Edit Jane Doe' }));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText('Mailchimp Tags') as HTMLInputElement).value).toBe('runners, vip');
    fireEvent.change(within(dialog).getByLabelText('Job Title'), { target: { value: 'CEO' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update Contact' }));
    await findToast('Contact updated successfully');
    expect(calls[0]).toMatchObject({ url: '/api/contacts/5', method: 'PUT', body: { jobTitle: 'CEO' } });
    // The dialog closes once the page's data is read again.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Delete Jane Doe' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(within(confirm).getByText('Are you sure you want to delete this contact?')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await findToast('Contact deleted successfully');
  });

  it('sends media contact edits to the contact edit page with a return to the outlet', async () => {
    const { router } = renderPage({
      path: '/media/:id',
      url: '/media/3',
      Component: () => <ContactsCard ownerType="media" ownerId={3} contacts={[contact({ entityType: 'media', entityId: 3 })]} />,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Edit Jane Doe' }));
    await waitFor(() => expect(router.state.location.pathname + router.state.location.search).toBe('/contacts/5/edit?return=%2Fmedia%2F3'));
  });
});

describe('contact pages', () => {
  it('contact detail: Back and Edit Contact keep the return path; delete asks, then goes back to it', async () => {
    // The contact's notes, tasks and activity cards read their lists once shown: none here.
    const calls = stubFetch((call) =>
      call.url.startsWith('/api/notes/mentionable')
        ? json([])
        : call.url.startsWith('/api/notes')
          ? json({ items: [] })
          : call.url.startsWith('/api/tasks')
            ? json({ items: [], next: null, today: '2026-11-28' })
            : call.url.startsWith('/api/contacts/5/activity')
              ? json({ items: [], next: null })
              : new Response(null, { status: 204 }),
    );
    const { router } = renderPage({
      path: '/contacts/:id',
      url: '/contacts/5?return=%2Fevents%2F7',
      Component: detailPage.Component,
      action: detailPage.action,
      data: { id: 5, contact: contactOfEvent(), returnTo: '/events/7' },
    });
    expect(screen.getByRole('heading', { name: 'Jane Doe' })).toBeTruthy();
    expect(contactOfLine()).toEqual({ text: 'Contact of Sydney Harbour Half Marathon (Event)', href: '/events/7' });
    expect(screen.getByText('Race director')).toBeTruthy();
    expect(screen.getByText('runners')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Back/ }).getAttribute('href')).toBe('/events/7');
    expect(screen.getByRole('link', { name: 'Edit Contact' }).getAttribute('href')).toBe('/contacts/5/edit?return=%2Fevents%2F7');
    // The History panel reads its first page once shown (its code loads after the page has hydrated).
    await waitFor(() => expect(calls).toContainEqual(expect.objectContaining({ url: '/api/contacts/5/history?page=1', method: 'GET' })));
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(within(confirm).getByText('Are you sure you want to delete this contact? This action cannot be undone.')).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await findToast('Contact deleted successfully.');
    await waitFor(() => expect(router.state.location.pathname).toBe('/events/7'));
    // The delete is the one write.
    expect(calls.filter((call) => call.method !== 'GET')).toEqual([expect.objectContaining({ url: '/api/contacts/5', method: 'DELETE' })]);
  });

  it("contact detail not found: 'Contact not found' and 'Return Back'", () => {
    renderPage({
      path: '/contacts/:id',
      url: '/contacts/0',
      Component: detailPage.Component,
      data: { id: 0, contact: null, returnTo: '/' },
    });
    expect(screen.getByRole('heading', { name: 'Contact not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Return Back' }).getAttribute('href')).toBe('/');
  });

  it('contact edit page saves and returns to the return path', async () => {
    const calls = stubFetch(() => json(contact()));
    const { router } = renderPage({
      path: '/contacts/:id/edit',
      url: '/contacts/5/edit?return=%2Fmedia%2F3',
      Component: editPage.Component,
      action: editPage.action,
      data: { id: 5, contact: contactOfEvent(), returnTo: '/media/3' },
    });
    expect(contactOfLine()).toEqual({ text: 'Contact of Sydney Harbour Half Marathon (Event)', href: '/events/7' });
    expect(screen.getByRole('link', { name: /Back/ }).getAttribute('href')).toBe('/media/3');
    fireEvent.change(screen.getByLabelText(/Last Name/), { target: { value: 'Smith' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Contact' }));
    await findToast('Contact updated successfully');
    await waitFor(() => expect(router.state.location.pathname).toBe('/media/3'));
    expect(calls[0]?.body).toMatchObject({ lastName: 'Smith', entityType: 'event', entityId: 7 });
  });

  it("owner add page: 'Create Contact', then 'Contact created successfully' and back to the owner", async () => {
    const calls = stubFetch(() => json(contact({ entityType: 'runclub', entityId: 4 }), 201));
    const { router } = renderPage({
      path: '/runclubs/:id/contacts/add',
      url: '/runclubs/4/contacts/add',
      Component: ownerPage.Component,
      action: ownerPage.action,
      data: {
        ownerType: 'runclub',
        ownerId: 4,
        contact: null,
        owner: { type: 'runclub', id: 4, name: 'Bondi Dawn Runners' },
        mode: 'add',
        found: true,
      },
    });
    expect(contactOfLine()).toEqual({ text: 'Contact of Bondi Dawn Runners (Run Club)', href: '/runclubs/4' });
    expect(screen.getByText('First Name').parentElement?.textContent).toContain('*');
    fireEvent.change(screen.getByLabelText(/First Name/), { target: { value: 'Kim' } });
    fireEvent.change(screen.getByLabelText(/Last Name/), { target: { value: 'Lee' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'bad' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Contact' }));
    expect(await screen.findByText('Invalid email address')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'kim@example.org' } });
    fireEvent.click(screen.getByLabelText('Primary contact'));
    fireEvent.click(screen.getByRole('button', { name: 'Create Contact' }));
    await findToast('Contact created successfully');
    await waitFor(() => expect(router.state.location.pathname).toBe('/runclubs/4'));
    expect(calls[0]?.body).toMatchObject({ entityType: 'runclub', entityId: 4, isPrimary: true, email: 'kim@example.org' });
  });

  it("owner pages: 'Failed to create contact' fallback, cancel goes back, missing contact is not found", async () => {
    stubFetch(() => new Response('', { status: 502, statusText: 'Bad Gateway' }));
    const { router } = renderPage({
      path: '/events/:id/contacts/add',
      url: '/events/7/contacts/add',
      Component: ownerPage.Component,
      action: ownerPage.action,
      data: {
        ownerType: 'event',
        ownerId: 7,
        contact: null,
        owner: { type: 'event', id: 7, name: 'Sydney Harbour Half Marathon' },
        mode: 'add',
        found: true,
      },
    });
    fireEvent.change(screen.getByLabelText(/First Name/), { target: { value: 'Kim' } });
    fireEvent.change(screen.getByLabelText(/Last Name/), { target: { value: 'Lee' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Contact' }));
    await toastSays('Error', 'Failed to create contact');
    // Cancel is a link, so it leads back without JavaScript too.
    fireEvent.click(screen.getByRole('link', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/events/7'));
  });

  it('owner edit page for a missing contact says so', () => {
    renderPage({
      path: '/brands/:id/contacts/:contactId/edit',
      url: '/brands/3/contacts/99/edit',
      Component: ownerPage.Component,
      data: { ownerType: 'brand', ownerId: 3, contact: null, owner: null, mode: 'edit', found: false },
    });
    expect(screen.getByRole('heading', { name: 'Contact not found' })).toBeTruthy();
    expect(screen.getByText('The contact you are trying to edit does not exist.')).toBeTruthy();
  });
});
