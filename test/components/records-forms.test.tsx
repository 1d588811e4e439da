import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { z } from 'zod';
import {
  BrandInputSchema,
  EventInputSchema,
  InfluencerInputSchema,
  MediaInputSchema,
  ProfessionalInputSchema,
  RunClubInputSchema,
  type Event,
} from '@shared/schemas/records.js';
import { allFields, readForm, splitList, type FormSection } from '@views/components/records/form-fields.js';
import { action as BrandAddAction, Component as BrandAdd } from '@views/pages/brands/add-page.js';
import { BRAND_FORM } from '@views/pages/brands/form.js';
import { action as EventEditAction, Component as EventEdit } from '@views/pages/events/edit-page.js';
import { EVENT_FORM } from '@views/pages/events/form.js';
import { action as InfluencerAddAction, Component as InfluencerAdd } from '@views/pages/influencers/add-page.js';
import { INFLUENCER_FORM } from '@views/pages/influencers/form.js';
import { action as MediaAddAction, Component as MediaAdd } from '@views/pages/media/add-page.js';
import { MEDIA_FORM } from '@views/pages/media/form.js';
import { action as ProfessionalAddAction, Component as ProfessionalAdd } from '@views/pages/professionals/add-page.js';
import { PROFESSIONAL_FORM } from '@views/pages/professionals/form.js';
import { action as RunClubEditAction, Component as RunClubEdit } from '@views/pages/runclubs/edit-page.js';
import { RUN_CLUB_FORM } from '@views/pages/runclubs/form.js';
import { findToast, renderPage } from './records-render.js';

afterEach(() => vi.unstubAllGlobals());

const detailStub = (path: string) => ({ path, Component: () => <p data-testid="detail-page">detail</p> });

const event: Event = {
  id: 5,
  eventName: 'Harbour Marathon',
  wordpressEventId: null,
  eventStartDate: '2027-03-14',
  eventEndDate: null,
  websiteUrl: null,
  locationAddress: null,
  locationLat: null,
  locationLng: null,
  locationState: 'NSW',
  runType: ['marathon', 'hill-climb'],
  trackType: [],
  featuredRace: true,
  entryCost: null,
  prizes: null,
  galleryImages: [],
  lastNewsletterInclusion: null,
  newsletterInclusionNotes: null,
  totalAdvertisingSpend: '0.00',
  notes: null,
  wordpressLastSync: null,
  wordpressUnpublishedAt: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  createdBy: 1,
  distances: [],
};

describe('record forms', () => {
  it.each<[string, readonly FormSection[], z.ZodObject]>([
    ['event', EVENT_FORM, EventInputSchema],
    ['professional', PROFESSIONAL_FORM, ProfessionalInputSchema],
    ['run club', RUN_CLUB_FORM, RunClubInputSchema],
    ['brand', BRAND_FORM, BrandInputSchema],
    ['media', MEDIA_FORM, MediaInputSchema],
    ['influencer', INFLUENCER_FORM, InfluencerInputSchema],
  ])('the %s form has exactly the fields of its schema (PUT replaces every form field)', (_name, sections, schema) => {
    expect(
      allFields(sections)
        .map((field) => field.name)
        .sort(),
    ).toEqual(Object.keys(schema.shape).sort());
  });

  it('splits list fields on commas, trims them and drops empty entries; reads flags and checkbox groups', () => {
    expect(splitList(' a, b ,, c ,')).toEqual(['a', 'b', 'c']);
    const form = new FormData();
    form.set('runType', 'road,  trail , ');
    form.set('featuredRace', 'on');
    form.append('clubType', 'trail');
    form.append('clubType', 'road');
    form.set('eventName', ' x ');
    const values = readForm(form, [
      { name: 'runType', label: 'Run types', kind: 'list' },
      { name: 'featuredRace', label: 'Featured', kind: 'checkbox' },
      { name: 'isPayingMember', label: 'Paying', kind: 'checkbox' },
      { name: 'clubType', label: 'Club type', kind: 'checkboxes', options: [] },
      { name: 'eventName', label: 'Event name', kind: 'text' },
    ]);
    expect(values).toEqual({
      runType: ['road', 'trail'],
      featuredRace: true,
      isPayingMember: false,
      clubType: ['trail', 'road'],
      eventName: ' x ',
    });
  });

  it("validates the brand form in the browser with the shared schema: 'Brand name is required', focused, nothing sent", async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderPage({ path: '/brands/add', url: '/brands/add', Component: BrandAdd, action: BrandAddAction });
    expect(await screen.findByRole('heading', { name: 'Add New Brand' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Brands' }).getAttribute('href')).toBe('/brands');
    expect(screen.getByRole('link', { name: 'Cancel' }).getAttribute('href')).toBe('/brands');
    // The label marks the required field with an asterisk.
    expect(screen.getByText('Brand name').closest('label')?.textContent).toBe('Brand name *');
    fireEvent.click(screen.getByRole('button', { name: 'Create Brand' }));
    expect(await screen.findByText('Brand name is required')).toBeTruthy();
    const input = screen.getByLabelText(/^Brand name( \*)?$/);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toContain('field-brandName-error');
    expect(document.activeElement).toBe(input);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("reads 'Creating...' (disabled) while pending, then toasts 'Brand created successfully' and opens the detail page", async () => {
    let answer!: (response: Response) => void;
    const fetchMock = vi.fn((_url: string, _init: RequestInit) => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal('fetch', fetchMock);
    const { router } = renderPage({
      path: '/brands/add',
      url: '/brands/add',
      Component: BrandAdd,
      action: BrandAddAction,
      others: [detailStub('brands/:id')],
    });
    fireEvent.change(await screen.findByLabelText(/^Brand name( \*)?$/), { target: { value: 'Stride Shoes' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Brand' }));
    const pending = await screen.findByRole('button', { name: 'Creating...' });
    expect((pending as HTMLButtonElement).disabled).toBe(true);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/brands');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toMatchObject({ brandName: 'Stride Shoes', industryCategory: '', locationState: '' });
    await act(async () => answer(new Response(JSON.stringify({ id: 7, brandName: 'Stride Shoes' }), { status: 201 })));
    await findToast('Brand created successfully');
    await waitFor(() => expect(router.state.location.pathname).toBe('/brands/7'));
  });

  it("shows the server's field issues and a destructive failure toast with its message", async () => {
    const body = {
      message: 'Must be a web address',
      code: 'validation_failed',
      issues: [{ path: 'websiteUrl', message: 'Must be a web address' }],
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(body), { status: 400 })),
    );
    // The browser's copy of the schema accepts the body here; only the server (say, a newer rule) refuses it.
    renderPage({ path: '/brands/add', url: '/brands/add', Component: BrandAdd, action: BrandAddAction });
    fireEvent.change(await screen.findByLabelText(/^Brand name( \*)?$/), { target: { value: 'Stride Shoes' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Brand' }));
    const toast = await findToast('Failed to create brand');
    expect(toast.textContent).toContain('Must be a web address');
    expect(toast.className).toContain('toast-destructive');
    // The field message lands with the action's answer, just after its toast.
    await waitFor(() => expect(screen.getAllByText('Must be a web address').length).toBe(2));
    expect(screen.getByLabelText('Website').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('button', { name: 'Create Brand' })).toBeTruthy();
  });

  it("falls back to 'Failed to update event' when the server sends no message", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 502, statusText: 'Bad Gateway' })),
    );
    renderPage({
      path: '/events/:id/edit',
      url: '/events/5/edit',
      Component: EventEdit,
      action: EventEditAction,
      data: { id: 5, record: event },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Update Event' }));
    const toast = await findToast('Failed to update event');
    expect(toast.className).toContain('toast-destructive');
    expect(toast.textContent).not.toContain('Bad Gateway');
  });

  it("prefills the event edit form, reads 'Updating...' while pending and PUTs every form field", async () => {
    let answer!: (response: Response) => void;
    const fetchMock = vi.fn((_url: string, _init: RequestInit) => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal('fetch', fetchMock);
    const { router } = renderPage({
      path: '/events/:id/edit',
      url: '/events/5/edit',
      Component: EventEdit,
      action: EventEditAction,
      data: { id: 5, record: event },
      others: [detailStub('events/:id')],
    });
    expect((await screen.findByLabelText<HTMLInputElement>(/^Event name( \*)?$/)).value).toBe('Harbour Marathon');
    // Run and track types are pickers of the known choices; a stored value the site added keeps its own box.
    const runTypes = within(screen.getByRole('group', { name: 'Run types' }));
    const checkedRunTypes = runTypes.getAllByRole<HTMLInputElement>('checkbox').filter((box) => box.checked);
    expect(checkedRunTypes.map((box) => box.value)).toEqual(['marathon', 'hill-climb']);
    expect(runTypes.getByRole('checkbox', { name: 'Half marathon' })).toBeTruthy();
    expect(runTypes.getByRole('checkbox', { name: 'Hill climb' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('Featured race').checked).toBe(true);
    expect(screen.getByLabelText<HTMLSelectElement>('State').value).toBe('NSW');
    expect(screen.getByLabelText<HTMLInputElement>('Start date').value).toBe('2027-03-14');

    fireEvent.change(screen.getByLabelText(/^Event name( \*)?$/), { target: { value: '  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Event' }));
    expect(await screen.findByText('Event name is required')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText(/^Event name( \*)?$/), { target: { value: 'Harbour Marathon 2027' } });
    const trackTypes = within(screen.getByRole('group', { name: 'Track types' }));
    fireEvent.click(trackTypes.getByRole('checkbox', { name: 'Road' }));
    fireEvent.click(trackTypes.getByRole('checkbox', { name: 'Trail' }));
    fireEvent.click(screen.getByLabelText('Featured race'));
    fireEvent.click(screen.getByRole('button', { name: 'Update Event' }));
    const pending = await screen.findByRole('button', { name: 'Updating...' });
    expect((pending as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByText('Event name is required')).toBeNull();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/events/5');
    expect(init.method).toBe('PUT');
    const sent = JSON.parse(String(init.body)) as Record<string, unknown>;
    // Every form field, and the version the form was loaded from (issue 13: no silent lost updates).
    expect(Object.keys(sent).sort()).toEqual([...Object.keys(EventInputSchema.shape), 'version'].sort());
    expect(sent.version).toBe(event.updatedAt);
    expect(sent).toMatchObject({
      eventName: 'Harbour Marathon 2027',
      trackType: ['road', 'trail'],
      runType: ['marathon', 'hill-climb'],
      featuredRace: false,
    });
    await act(async () => answer(new Response(JSON.stringify({ ...event, eventName: 'Harbour Marathon 2027' }), { status: 200 })));
    await findToast('Event updated successfully');
    await waitFor(() => expect(router.state.location.pathname).toBe('/events/5'));
  });

  describe('an edit that someone else saved first (409 edit_conflict)', () => {
    const theirs: Event = { ...event, eventName: 'Harbour Marathon by Anna', updatedAt: '2026-11-02T09:30:00.000Z' };
    const message = `This event was changed by Anna Lee at ${theirs.updatedAt} after you opened it. Reload to see their change, or save again to overwrite it.`;
    const json = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

    /** The server: the first PUT is stale, GET answers Anna's version, a PUT carrying her version saves. */
    function stubServer() {
      const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
        if (init?.method === 'PUT') {
          const sent = JSON.parse(String(init.body)) as Event & { version?: string };
          if (sent.version !== theirs.updatedAt) return json({ code: 'edit_conflict', message }, 409);
          return json({ ...sent, id: 5, updatedAt: '2026-11-02T10:00:00.000Z' });
        }
        if (url === '/api/events/5') return json(theirs);
        return json({ message: 'unexpected' }, 500);
      });
      vi.stubGlobal('fetch', fetchMock);
      return fetchMock;
    }
    const puts = (fetchMock: ReturnType<typeof stubServer>) =>
      fetchMock.mock.calls
        .filter(([, init]) => init?.method === 'PUT')
        .map(([, init]) => JSON.parse(String(init!.body)) as Record<string, unknown>);

    async function conflictAfterTyping() {
      const fetchMock = stubServer();
      let current = event;
      const rendered = renderPage({
        path: '/events/:id/edit',
        url: '/events/5/edit',
        Component: EventEdit,
        action: EventEditAction,
        data: { id: 5, record: event },
        // A reload reads the record as it is now: Anna's change.
        loader: () => ({ id: 5, record: current }),
        others: [detailStub('events/:id')],
      });
      current = theirs;
      fireEvent.change(await screen.findByLabelText(/^Event name( \*)?$/), { target: { value: 'Harbour Marathon by Ben' } });
      fireEvent.click(screen.getByRole('button', { name: 'Update Event' }));
      const alert = await screen.findByText(message);
      return { fetchMock, alert, ...rendered };
    }

    it('shows who changed it and when, keeps what was typed, and Save anyway overwrites with their version', async () => {
      const { fetchMock, router } = await conflictAfterTyping();
      expect(puts(fetchMock)[0]).toMatchObject({ eventName: 'Harbour Marathon by Ben', version: event.updatedAt });
      expect(screen.getByLabelText<HTMLInputElement>(/^Event name( \*)?$/).value).toBe('Harbour Marathon by Ben');
      expect(router.state.location.pathname).toBe('/events/5/edit');

      fireEvent.click(screen.getByRole('button', { name: 'Save anyway' }));
      await findToast('Event updated successfully');
      await waitFor(() => expect(router.state.location.pathname).toBe('/events/5'));
      expect(puts(fetchMock)[1]).toMatchObject({ eventName: 'Harbour Marathon by Ben', version: theirs.updatedAt });
    });

    it('Reload drops what was typed and shows the other change', async () => {
      const { fetchMock } = await conflictAfterTyping();
      fireEvent.click(screen.getByRole('link', { name: 'Reload' }));
      await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>(/^Event name( \*)?$/).value).toBe('Harbour Marathon by Anna'));
      expect(screen.queryByText(message)).toBeNull();
      // A save from the reloaded form carries the new version.
      fireEvent.click(screen.getByRole('button', { name: 'Update Event' }));
      await findToast('Event updated successfully');
      expect(puts(fetchMock)[1]).toMatchObject({ eventName: 'Harbour Marathon by Anna', version: theirs.updatedAt });
    });
  });

  it('says that the record being edited does not exist', async () => {
    renderPage({
      path: '/events/:id/edit',
      url: '/events/9/edit',
      Component: EventEdit,
      action: EventEditAction,
      data: { id: 9, record: null },
    });
    expect(await screen.findByRole('heading', { name: 'Event not found' })).toBeTruthy();
    expect(screen.getByText('The event you are trying to edit does not exist.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Events' }).getAttribute('href')).toBe('/events');
  });

  it("validates professionals ('Business name is required') and says they are added unpublished", async () => {
    vi.stubGlobal('fetch', vi.fn());
    renderPage({ path: '/professionals/add', url: '/professionals/add', Component: ProfessionalAdd, action: ProfessionalAddAction });
    expect(await screen.findByRole('heading', { name: 'Add Unpublished Professional' })).toBeTruthy();
    expect(screen.getByText(/unpublished \(Draft\)/)).toBeTruthy();
    expect([...screen.getByLabelText<HTMLSelectElement>('Profession type').options].map((o) => o.textContent)).toEqual([
      'Not set',
      'Coach',
      'Physiotherapist',
      'Nutritionist',
      'Podiatrist',
      'Massage therapist',
      'Trainer',
      'Other',
    ]);
    expect(screen.getByLabelText<HTMLSelectElement>('Subscription status').value).toBe('active');
    fireEvent.click(screen.getByRole('button', { name: 'Create Professional' }));
    expect(await screen.findByText('Business name is required')).toBeTruthy();
  });

  it("validates run clubs: 'Club name is required' and a whole membership count", async () => {
    vi.stubGlobal('fetch', vi.fn());
    const club = { id: 3, clubName: 'Harbour Runners', clubType: ['road'], membershipCount: null, meetingTimes: [], schedules: [] };
    renderPage({
      path: '/runclubs/:id/edit',
      url: '/runclubs/3/edit',
      Component: RunClubEdit,
      action: RunClubEditAction,
      data: { id: 3, record: club },
    });
    expect((await screen.findByRole<HTMLInputElement>('checkbox', { name: 'Road' })).checked).toBe(true);
    fireEvent.change(screen.getByLabelText(/^Club name( \*)?$/), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Membership count'), { target: { value: '12.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Update Run Club' }));
    expect(await screen.findByText('Club name is required')).toBeTruthy();
    expect(screen.getByText('Membership count must be a whole number')).toBeTruthy();
  });

  it("validates media ('Media name is required') and influencers (first and last name), with the type select", async () => {
    vi.stubGlobal('fetch', vi.fn());
    const media = renderPage({ path: '/media/add', url: '/media/add', Component: MediaAdd, action: MediaAddAction });
    fireEvent.click(await screen.findByRole('button', { name: 'Create Media Outlet' }));
    expect(await screen.findByText('Media name is required')).toBeTruthy();
    media.unmount();

    renderPage({ path: '/influencers/add', url: '/influencers/add', Component: InfluencerAdd, action: InfluencerAddAction });
    const type = await screen.findByLabelText<HTMLSelectElement>(/^Type( \*)?$/);
    expect(type.value).toBe('influencer');
    expect([...type.options].map((o) => o.textContent)).toEqual(['Influencer', 'Pro', 'Pro & Influencer']);
    for (const label of ['First name', 'Last name', 'Type'])
      expect(screen.getByText(label, { selector: 'label' }).textContent).toBe(`${label} *`);
    fireEvent.click(screen.getByRole('button', { name: 'Create Influencer' }));
    expect(await screen.findByText('First name is required')).toBeTruthy();
    expect(screen.getByText('Last name is required')).toBeTruthy();
  });
});
