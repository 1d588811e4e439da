import { detailGroupFacts, recordDefinition } from '@shared/records/index.js';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Brand, Event, Influencer, Media, Professional } from '@shared/schemas/records.js';
import { NO_ATTACHMENTS } from '@views/components/records/loaders.js';
import * as brandDetail from '@views/pages/brands/detail-page.js';
import * as brandList from '@views/pages/brands/list-page.js';
import * as eventDetail from '@views/pages/events/detail-page.js';
import * as eventList from '@views/pages/events/list-page.js';
import * as influencerDetail from '@views/pages/influencers/detail-page.js';
import * as mediaDetail from '@views/pages/media/detail-page.js';
import * as mediaList from '@views/pages/media/list-page.js';
import * as professionalDetail from '@views/pages/professionals/detail-page.js';
import * as professionalList from '@views/pages/professionals/list-page.js';
import * as runclubDetail from '@views/pages/runclubs/detail-page.js';
import { findToast, renderPage } from './records-render.js';

afterEach(() => vi.unstubAllGlobals());

const audit = { createdAt: '2026-11-01T01:00:00.000Z', updatedAt: '2026-11-01T01:00:00.000Z', createdBy: 1 };
const place = { locationAddress: null, locationLat: null, locationLng: null, locationState: 'NSW' };

const event = (overrides: Partial<Event>): Event => ({
  id: 1,
  eventName: 'Harbour Marathon',
  wordpressEventId: null,
  eventStartDate: null,
  eventEndDate: null,
  websiteUrl: null,
  ...place,
  runType: [],
  trackType: [],
  featuredRace: false,
  entryCost: null,
  prizes: null,
  galleryImages: [],
  lastNewsletterInclusion: null,
  newsletterInclusionNotes: null,
  totalAdvertisingSpend: '0.00',
  notes: null,
  wordpressLastSync: null,
  wordpressUnpublishedAt: null,
  ...audit,
  distances: [],
  ...overrides,
});

const brand = (overrides: Partial<Brand>): Brand => ({
  id: 4,
  brandName: 'Stride Shoes',
  industryCategory: 'Footwear',
  websiteUrl: null,
  instagramUrl: null,
  facebookUrl: null,
  linkedinUrl: null,
  notes: null,
  totalAdvertisingSpend: '0.00',
  paymentStatus: 'current',
  lastCampaignEndDate: null,
  locationState: null,
  ...audit,
  ...overrides,
});

const professional = (overrides: Partial<Professional>): Professional => ({
  id: 2,
  businessName: 'Peak Physio',
  wordpressProfessionalId: null,
  professionType: 'physiotherapist',
  professionTypeOther: null,
  contactType: [],
  trackType: [],
  specializations: [],
  credentials: [],
  deliveryMethods: [],
  ...place,
  websiteUrl: null,
  instagramUrl: null,
  facebookUrl: null,
  subscriptionStatus: 'active',
  subscriptionExpiryDate: null,
  totalPayments: '0.00',
  paymentAlertFlag: false,
  lastNewsletterInclusion: null,
  newsletterInclusionNotes: null,
  notes: null,
  wordpressLastSync: null,
  wordpressUnpublishedAt: null,
  ...audit,
  ...overrides,
});

const listData = <T,>(items: T[], q = '', page = 1, total = items.length) => ({
  items,
  total,
  // The cursors a list answer gives around this page (any text: the page only passes them on).
  next: page * 24 < total ? 'next.cursor' : null,
  prev: page > 1 ? 'prev.cursor' : null,
  query: { q, filter: '', sort: 'newest', dir: 'desc' as const, page },
  display: { layout: 'cards' as const, columns: [] },
  tableColumns: [],
  cardFields: [],
  sorts: { newest: 'desc' as const, updatedAt: 'desc' as const },
});

describe('record lists', () => {
  it("shows event cards with 'Featured' / 'Active', the date or 'Date TBD', and links to detail and edit", async () => {
    const items = [event({ id: 1, featuredRace: true, eventStartDate: '2027-03-14' }), event({ id: 2, eventName: 'Bush Trail Run' })];
    renderPage({ path: '/events', url: '/events', Component: eventList.Component, data: listData(items) });
    const [first, second] = await screen.findAllByTestId('event-card');
    expect(within(first!).getByText('Featured')).toBeTruthy();
    expect(within(first!).getByText('14 Mar 2027')).toBeTruthy();
    expect(within(second!).getByText('Active')).toBeTruthy();
    expect(within(second!).getByText('Date TBD')).toBeTruthy();
    expect(within(first!).getByRole('link', { name: 'Harbour Marathon' }).getAttribute('href')).toBe('/events/1');
    expect(within(first!).getByRole('link', { name: 'Edit Harbour Marathon' }).getAttribute('href')).toBe('/events/1/edit');
    expect(screen.getByRole('link', { name: 'Bulk Import' }).getAttribute('href')).toBe('/events/bulk-import');
    expect(screen.getByRole('searchbox', { name: 'Search events' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLSelectElement>('Show').value).toBe('all');
    expect(screen.getByText('2 results')).toBeTruthy();
  });

  it('opens a card and its edit page in the app (no page load), but leaves modified clicks to the browser', async () => {
    const { router } = renderPage({ path: '/events', url: '/events', Component: eventList.Component, data: listData([event({ id: 7 })]) });
    const card = await screen.findByTestId('event-card');
    const title = within(card).getByRole('link', { name: 'Harbour Marathon' });
    // fireEvent answers false when a handler prevented the browser's own navigation.
    expect(fireEvent.click(title, { ctrlKey: true })).toBe(true);
    expect(router.state.location.pathname).toBe('/events');
    expect(fireEvent.click(title)).toBe(false);
    await waitFor(() => expect(router.state.location.pathname).toBe('/events/7'));
    await act(() => router.navigate('/events'));
    expect(fireEvent.click(within(await screen.findByTestId('event-card')).getByRole('link', { name: 'Edit Harbour Marathon' }))).toBe(
      false,
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/events/7/edit'));
  });

  it('offers Cards | Table | Calendar on events (Cards current for a new user), and no calendar on other lists', async () => {
    renderPage({ path: '/events', url: '/events', Component: eventList.Component, data: listData([event({ id: 1 })]) });
    const views = within(await screen.findByRole('form', { name: 'View' }));
    expect(views.getAllByRole('button').map((button) => [button.textContent, button.getAttribute('aria-pressed')])).toEqual([
      ['Cards', 'true'],
      ['Table', 'false'],
      ['Calendar', 'false'],
    ]);
    expect(views.getByRole('button', { name: 'Calendar' }).getAttribute('value')).toBe('calendar');
  });

  it('shows the season calendar with the same switch, Calendar current, and Bulk Import kept', async () => {
    const calendar = {
      view: 'calendar' as const,
      calendar: {
        month: '2027-03',
        today: '2027-03-10',
        truncated: false,
        events: [
          { id: 3, eventName: 'March Opener', eventStartDate: '2027-03-14', eventEndDate: null, featuredRace: false, locationState: 'NSW' },
        ],
      },
    };
    renderPage({ path: '/events', url: '/events?view=calendar&month=2027-03', Component: eventList.Component, data: calendar });
    const views = within(await screen.findByRole('form', { name: 'View' }));
    expect(views.getAllByRole('button').map((button) => [button.textContent, button.getAttribute('aria-pressed')])).toEqual([
      ['Cards', 'false'],
      ['Table', 'false'],
      ['Calendar', 'true'],
    ]);
    expect(await screen.findByRole('heading', { name: 'March 2027' })).toBeTruthy();
    expect(screen.getAllByRole('link', { name: /March Opener/ })[0]!.getAttribute('href')).toBe('/events/3');
    expect(screen.getByRole('link', { name: 'Bulk Import' }).getAttribute('href')).toBe('/events/bulk-import');
    // No separate Calendar link any more: the switch is the way there.
    expect(screen.queryByRole('link', { name: 'Calendar' })).toBeNull();
  });

  it("says 'No events found' and that events come from the content website", async () => {
    renderPage({ path: '/events', url: '/events', Component: eventList.Component, data: listData([]) });
    expect(await screen.findByRole('heading', { name: 'No events found' })).toBeTruthy();
    expect(screen.getByText(/imported from the content website/)).toBeTruthy();
  });

  it("titles media 'Media Management', falls back to 'Unnamed Media' / 'Media Outlet', and varies the empty hint by search", async () => {
    const nameless = {
      id: 9,
      mediaName: '',
      industry: null,
      websiteUrl: 'https://m.example.org',
      instagramUrl: null,
      notes: null,
      ...audit,
    } satisfies Media;
    const view = renderPage({
      path: '/media',
      url: '/media',
      Component: mediaList.Component,
      action: mediaList.action,
      data: listData([nameless]),
    });
    expect(await screen.findByRole('heading', { name: 'Media Management' })).toBeTruthy();
    expect(screen.getByRole('searchbox').getAttribute('placeholder')).toBe('Search media outlets...');
    expect(screen.getByRole('link', { name: 'Unnamed Media' })).toBeTruthy();
    expect(screen.getByText('Media Outlet')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Website/ }).getAttribute('href')).toBe('https://m.example.org/');
    view.unmount();

    const empty = renderPage({
      path: '/media',
      url: '/media',
      Component: mediaList.Component,
      action: mediaList.action,
      data: listData([]),
    });
    expect(await screen.findByRole('heading', { name: 'No media outlets found' })).toBeTruthy();
    expect(screen.getByText('Get started by adding your first media outlet.')).toBeTruthy();
    empty.unmount();

    renderPage({
      path: '/media',
      url: '/media?q=zzz',
      Component: mediaList.Component,
      action: mediaList.action,
      data: listData([], 'zzz'),
    });
    expect(await screen.findByText('Try adjusting your search terms.')).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('searchbox').value).toBe('zzz');
  });

  it('pages through the list with links that keep the search', async () => {
    renderPage({
      path: '/brands',
      url: '/brands?q=run&page=2',
      Component: brandList.Component,
      action: brandList.action,
      data: listData([brand({})], 'run', 2, 60),
    });
    const nav = await screen.findByRole('navigation', { name: 'Pagination' });
    expect(within(nav).getByText(/Page 2 of 3/)).toBeTruthy();
    // Brands have no calendar view.
    expect(
      within(screen.getByRole('form', { name: 'View' }))
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Cards', 'Table']);
    // Page 1 by its number; Next by the cursor of this page's last row, the page number kept to show.
    expect(within(nav).getByRole('link', { name: 'Previous' }).getAttribute('href')).toBe('/brands?q=run');
    expect(within(nav).getByRole('link', { name: 'Next' }).getAttribute('href')).toBe('/brands?q=run&after=next.cursor&page=3');
  });

  it('goes back by cursor from a deep page, and offers no Next on the last', async () => {
    renderPage({
      path: '/brands',
      url: '/brands?after=x.y&page=3',
      Component: brandList.Component,
      action: brandList.action,
      data: listData([brand({})], '', 3, 60),
    });
    const nav = await screen.findByRole('navigation', { name: 'Pagination' });
    expect(within(nav).getByText(/Page 3 of 3/)).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Previous' }).getAttribute('href')).toBe('/brands?before=prev.cursor&page=2');
    expect(within(nav).queryByRole('link', { name: 'Next' })).toBeNull();
  });

  it('offers the last page when the page asked for is past the end', async () => {
    renderPage({
      path: '/brands',
      url: '/brands?q=run&page=5',
      Component: brandList.Component,
      action: brandList.action,
      data: listData<Brand>([], 'run', 5, 30),
    });
    expect(await screen.findByRole('heading', { name: 'This page is empty' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the last page' }).getAttribute('href')).toBe('/brands?q=run&page=2');
    expect(screen.queryByRole('heading', { name: 'No brands found' })).toBeNull();
  });

  it('asks before deleting a brand from the list, keeps focus on Cancel, then deletes and reloads the list', async () => {
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    const loader = vi.fn(() => listData<Brand>([]));
    renderPage({
      path: '/brands',
      url: '/brands',
      Component: brandList.Component,
      action: brandList.action,
      data: listData([brand({})]),
      loader,
    });
    expect(screen.getByRole('link', { name: 'Add Brand' }).getAttribute('href')).toBe('/brands/add');

    fireEvent.click(await screen.findByRole('button', { name: 'Delete Stride Shoes' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Are you sure you want to delete this brand?')).toBeTruthy();
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Cancel'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Delete Stride Shoes' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await findToast('Brand deleted successfully');
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/brands/4');
    expect(fetchMock.mock.calls[0]![1].method).toBe('DELETE');
    await waitFor(() => expect(loader).toHaveBeenCalled());
    expect(await screen.findByRole('heading', { name: 'No brands found' })).toBeTruthy();
  });

  it("offers delete only for unpublished professionals, and shows the server's reason when it refuses", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ message: 'Published professionals cannot be deleted', code: 'conflict' }), { status: 409 }),
      ),
    );
    const items = [professional({ id: 2 }), professional({ id: 3, businessName: 'Coastal Coaching', wordpressProfessionalId: 77 })];
    renderPage({
      path: '/professionals',
      url: '/professionals',
      Component: professionalList.Component,
      action: professionalList.action,
      data: listData(items),
    });
    const cards = await screen.findAllByTestId('professional-card');
    expect(within(cards[0]!).getByText('Draft')).toBeTruthy();
    expect(within(cards[1]!).getByText('Published')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete Coastal Coaching' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Delete Peak Physio' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Are you sure you want to delete this professional?')).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' })));
    const toast = await findToast('Failed to delete professional');
    expect(toast.className).toContain('toast-destructive');
    expect(toast.textContent).toContain('Published professionals cannot be deleted');
  });
});

describe('record detail pages', () => {
  it.each([
    ['/events/:id', eventDetail.Component, 'Event not found', 'Back to Events', '/events'],
    ['/professionals/:id', professionalDetail.Component, 'Professional not found', 'Back to Professionals', '/professionals'],
    ['/runclubs/:id', runclubDetail.Component, 'Run Club not found', 'Back to Run Clubs', '/runclubs'],
    ['/brands/:id', brandDetail.Component, 'Brand not found', 'Return to Brands', '/brands'],
    ['/media/:id', mediaDetail.Component, 'Media outlet not found', 'Return to Media', '/media'],
    ['/influencers/:id', influencerDetail.Component, 'Influencer not found', 'Return to Influencers', '/influencers'],
  ])('%s says "%s" with a way back', async (path, Component, text, back, href) => {
    renderPage({
      path,
      url: path.replace(':id', '0'),
      Component,
      data: { id: 0, record: null, attachments: NO_ATTACHMENTS, wordpressUrl: null },
    });
    expect(await screen.findByRole('heading', { name: text })).toBeTruthy();
    expect(screen.getByRole('link', { name: back }).getAttribute('href')).toBe(href);
  });

  it('puts payments and files in tabs with their counts; ?tab=payments opens that tab', async () => {
    const payment = {
      id: 3,
      entityType: 'brand' as const,
      entityId: 1,
      paymentType: 'advertising',
      description: 'Spring banner',
      amount: '120.00',
      paymentDate: '2026-10-01',
      startDate: null,
      endDate: null,
      invoiceNumber: null,
      invoiceStatus: 'paid',
      paymentMethod: null,
      notes: null,
      ...audit,
    };
    renderPage({
      path: '/brands/:id',
      url: '/brands/1?tab=payments',
      Component: brandDetail.Component,
      action: brandDetail.action,
      data: {
        id: 1,
        record: brand({}),
        attachments: { ...NO_ATTACHMENTS, payments: [payment], paymentsTotal: '120.00' },
        detailGroups: detailGroupFacts(recordDefinition('brand')),
      },
    });
    const tab = await screen.findByRole('tab', { name: 'Payments (1)' });
    expect(tab.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'Files (0)' }).getAttribute('aria-selected')).toBe('false');
    expect(screen.getByRole('tab', { name: 'Details' }).getAttribute('aria-selected')).toBe('false');
    // The open tab shows the payment with its labels, not its stored values.
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getByText('Spring banner')).toBeTruthy();
    expect(within(panel).getByText('Paid')).toBeTruthy();
    expect(within(panel).getByText(/Advertising/)).toBeTruthy();
    expect(screen.queryByText('Brand Information')).toBeNull();
  });

  it("shows a synced type outside the list as 'Other (Osteopath)', and 'Unpublished' once the site unpublished it", async () => {
    renderPage({
      path: '/professionals/:id',
      url: '/professionals/2',
      Component: professionalDetail.Component,
      action: professionalDetail.action,
      data: {
        id: 2,
        record: professional({
          wordpressProfessionalId: 77,
          professionType: 'other',
          professionTypeOther: 'Osteopath',
          trackType: ['road', 'sand-dunes'],
          wordpressUnpublishedAt: '2026-11-28T09:00:00.000Z',
        }),
        attachments: NO_ATTACHMENTS,
      },
    });
    expect(await screen.findByText('Other (Osteopath)')).toBeTruthy();
    expect(screen.getByText('Road, Sand dunes')).toBeTruthy();
    expect(screen.getAllByText('Unpublished').length).toBeGreaterThan(0);
    expect(screen.queryByText('Published')).toBeNull();
  });

  it("shows an unsynced event's tabs, 'Never included', 'Not synced' and 'Never synced'", async () => {
    renderPage({
      path: '/events/:id',
      url: '/events/1',
      Component: eventDetail.Component,
      action: eventDetail.action,
      data: { id: 1, record: event({ featuredRace: true }), attachments: NO_ATTACHMENTS, wordpressUrl: null },
    });
    expect(await screen.findByRole('tab', { name: 'Details' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Contacts (0)' })).toBeTruthy();
    // Empty fields are named together in one quiet line instead of a 'Not set' row each.
    for (const label of ['Website', 'End date']) expect(screen.queryByText(label, { selector: 'dt' })).toBeNull();
    const emptyLine = screen.getAllByTestId('empty-fields')[0]!.textContent;
    expect(emptyLine).toMatch(/^Empty fields: .*End date, .*Website/);
    expect(screen.queryByText('Not set')).toBeNull();
    const sidebar = screen.getByRole('complementary', { name: 'Summary' });
    expect(within(sidebar).getByText('Featured')).toBeTruthy();
    expect(within(sidebar).getAllByText('Not synced').length).toBe(1);
    expect(within(sidebar).getByText('Never synced')).toBeTruthy();
    expect(within(sidebar).queryByRole('link', { name: /Edit in WordPress/ })).toBeNull();
    // Created and updated are the same: only the created time shows.
    expect(within(sidebar).queryByText('Updated')).toBeNull();
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Marketing' }), { button: 0 });
    expect(await screen.findByText('Never included')).toBeTruthy();
    expect(screen.getByText(/not yet done/)).toBeTruthy();
  });

  it('links a synced event to its public page, website and admin edit, and shows its distances', async () => {
    const synced = event({
      wordpressEventId: 4321,
      wordpressLastSync: '2026-11-20T08:30:00.000Z',
      websiteUrl: 'https://cityten.example.org',
      updatedAt: '2026-11-02T01:00:00.000Z',
      distances: [
        {
          id: 1,
          eventId: 1,
          distanceKm: '10.00',
          distanceStartDate: '2027-03-14',
          distanceStartTime: '07:00',
          entryFee: '45.00',
          participantsCount: 800,
          gpxFilePath: null,
          stravaLink: null,
          elevationTitle: null,
          medianTime: null,
          lastTime: null,
          prizes: [],
          prizeDescription: null,
          recommendTitle: null,
          productUrl: null,
          productImagePath: null,
          createdAt: audit.createdAt,
        },
      ],
    });
    renderPage({
      path: '/events/:id',
      url: '/events/1',
      Component: eventDetail.Component,
      action: eventDetail.action,
      data: { id: 1, record: synced, attachments: NO_ATTACHMENTS, wordpressUrl: 'https://run.example.org/events/4321' },
    });
    expect((await screen.findByRole('link', { name: /View Event Page/ })).getAttribute('href')).toBe('https://run.example.org/events/4321');
    expect(screen.getByRole('link', { name: /Visit Website/ }).getAttribute('href')).toBe('https://cityten.example.org/');
    expect(screen.getByRole('link', { name: /Edit in WordPress/ }).getAttribute('href')).toBe(
      'https://cms.example.org/wp-admin/post.php?post=4321&action=edit',
    );
    expect(screen.getByText('4321')).toBeTruthy();
    expect(screen.getByText('Updated')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Distances' })).toBeTruthy();
    expect(screen.getByText('10 km')).toBeTruthy();
  });

  it('tells an admin, as a hint, that no public site is configured for a synced event; others see no row', async () => {
    const data = { id: 1, record: event({ wordpressEventId: 12 }), attachments: NO_ATTACHMENTS, wordpressUrl: null };
    const admin = renderPage({
      path: '/events/:id',
      url: '/events/1',
      Component: eventDetail.Component,
      action: eventDetail.action,
      data,
      role: 'admin',
    });
    const hint = await screen.findByTestId('public-site-hint');
    expect(hint.textContent).toMatch(/^Public site address not configured: set PUBLIC_SITE_URL/);
    expect(hint.className).toBe('field-hint');
    expect(screen.queryByRole('link', { name: /View Event Page/ })).toBeNull();
    admin.unmount();
    renderPage({
      path: '/events/:id',
      url: '/events/1',
      Component: eventDetail.Component,
      action: eventDetail.action,
      data,
      role: 'staff',
    });
    await screen.findByRole('heading', { name: 'Event Details' });
    expect(screen.queryByText(/Public site address/)).toBeNull();
    expect(screen.queryByText(/Public event page/)).toBeNull();
  });

  it('shows the professional status badges and the delete button only when unpublished', async () => {
    const view = renderPage({
      path: '/professionals/:id',
      url: '/professionals/2',
      Component: professionalDetail.Component,
      action: professionalDetail.action,
      data: { id: 2, record: professional({ subscriptionStatus: 'expired' }), attachments: NO_ATTACHMENTS },
    });
    expect((await screen.findAllByText('Draft')).length).toBeGreaterThan(0);
    expect(screen.getAllByText('Expired').length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Delete' })).toBeTruthy();
    view.unmount();
    renderPage({
      path: '/professionals/:id',
      url: '/professionals/3',
      Component: professionalDetail.Component,
      action: professionalDetail.action,
      data: { id: 3, record: professional({ id: 3, wordpressProfessionalId: 9 }), attachments: NO_ATTACHMENTS },
    });
    expect((await screen.findAllByText('Published')).length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });

  it("deletes a brand from its detail page after 'This action cannot be undone.' and goes to the list", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    const { router } = renderPage({
      path: '/brands/:id',
      url: '/brands/4',
      Component: brandDetail.Component,
      action: brandDetail.action,
      data: {
        id: 4,
        record: brand({ websiteUrl: 'stride.example.org', locationState: 'VIC' }),
        attachments: NO_ATTACHMENTS,
        detailGroups: detailGroupFacts(recordDefinition('brand')),
      },
      others: [{ path: 'brands', Component: () => <p>brand list</p> }],
    });
    expect(await screen.findByRole('heading', { name: 'Brand Information' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Edit Brand' }).getAttribute('href')).toBe('/brands/4/edit');
    expect(screen.getByRole('link', { name: /Visit Site/ }).getAttribute('href')).toBe('https://stride.example.org/');
    expect(screen.getByText('VIC')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Are you sure you want to delete this brand? This action cannot be undone.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await findToast('Brand deleted successfully');
    await waitFor(() => expect(router.state.location.pathname).toBe('/brands'));
  });

  it('links an influencer by mailto, tel and profile URLs built from the handles', async () => {
    const influencer: Influencer = {
      id: 6,
      firstName: 'Ava',
      lastName: 'Stride',
      influencerType: 'both',
      instagramHandle: 'avaruns',
      tiktokHandle: 'ava.tt',
      facebookHandle: 'AvaRuns',
      websiteUrl: null,
      email: 'ava@example.org',
      phone: '+61 400 000 000',
      notes: null,
      ...audit,
    };
    renderPage({
      path: '/influencers/:id',
      url: '/influencers/6',
      Component: influencerDetail.Component,
      action: influencerDetail.action,
      data: { id: 6, record: influencer, attachments: NO_ATTACHMENTS },
    });
    expect((await screen.findByRole('link', { name: 'ava@example.org' })).getAttribute('href')).toBe('mailto:ava@example.org');
    expect(screen.getByRole('link', { name: '+61 400 000 000' }).getAttribute('href')).toBe('tel:+61400000000');
    expect(screen.getByRole('link', { name: /@avaruns/ }).getAttribute('href')).toBe('https://www.instagram.com/avaruns');
    expect(screen.getByRole('link', { name: /@ava\.tt/ }).getAttribute('href')).toBe('https://www.tiktok.com/@ava.tt');
    expect(screen.getByRole('link', { name: /AvaRuns/ }).getAttribute('href')).toBe('https://www.facebook.com/AvaRuns');
    expect(screen.getAllByText('Pro & Influencer').length).toBe(2);
    expect(screen.getByText('Last updated')).toBeTruthy();
  });
});
