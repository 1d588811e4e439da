import { cardFieldFacts, detailGroupFacts, recordDefinition, SORTS } from '@shared/records/index.js';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Role } from '@shared/roles.js';
import type { Contact, Payment, StoredFile } from '@shared/schemas/attachments.js';
import type { Brand } from '@shared/schemas/records.js';
import * as brandDetail from '@views/pages/brands/detail-page.js';
import * as brandList from '@views/pages/brands/list-page.js';
import * as contactDetail from '@views/pages/contacts/contact-detail-page.js';
import { renderPage } from './records-render.js';

const audit = { createdAt: '2026-11-01T01:00:00.000Z', updatedAt: '2026-11-01T01:00:00.000Z', createdBy: 1 };
const brand: Brand = {
  id: 4,
  brandName: 'Stride Shoes',
  industryCategory: 'Footwear',
  websiteUrl: null,
  instagramUrl: null,
  facebookUrl: null,
  linkedinUrl: null,
  notes: null,
  totalAdvertisingSpend: '10.00',
  paymentStatus: 'current',
  lastCampaignEndDate: null,
  locationState: null,
  ...audit,
};
const contact: Contact = {
  id: 5,
  firstName: 'Jane',
  lastName: 'Doe',
  jobTitle: null,
  email: null,
  phone: null,
  notes: null,
  mailchimpTags: [],
  entityType: 'brand',
  entityId: 4,
  isPrimary: false,
  ...audit,
};
const payment: Payment = {
  id: 11,
  entityType: 'brand',
  entityId: 4,
  paymentType: 'Advertising',
  description: 'Spring banner',
  amount: '10.00',
  paymentDate: null,
  startDate: null,
  endDate: null,
  invoiceNumber: null,
  invoiceStatus: 'paid',
  paymentMethod: null,
  notes: null,
  ...audit,
};
const file: StoredFile = {
  id: 21,
  entityType: 'brand',
  entityId: 4,
  fileName: 'x.pdf',
  originalName: 'brief.pdf',
  fileType: 'application/pdf',
  fileSize: 2048,
  fileCategory: 'document',
  description: null,
  uploadedAt: '2026-11-01T00:00:00.000Z',
  uploadedBy: 1,
  url: '/api/uploads/21',
};

/** What a person who can make changes sees on the brand pages; a viewer sees none of it. */
const WRITE_CONTROLS = {
  list: [/^Add Brand$/, /^Bulk Import$/, /^Edit Stride Shoes$/, /^Delete Stride Shoes$/],
  detail: [/^Edit Brand$/, /^Delete$/, /^Add Contact$/, /^Edit Jane Doe$/],
  payments: [/^Add Payment$/, /^Edit payment Spring banner$/],
  files: [/^Upload Files$/, /^Delete brief.pdf$/],
  contact: [/^Edit Contact$/, /^Delete$/],
};

const controls = (names: RegExp[]) =>
  names.filter((name) => screen.queryAllByRole('button', { name }).length + screen.queryAllByRole('link', { name }).length > 0);

describe('write buttons follow the role', () => {
  it.each<[Role, boolean]>([
    ['viewer', false],
    ['staff', true],
    ['admin', true],
  ])('%s: the list, the detail page and the contact page (shown: %s)', async (role, shown) => {
    const list = renderPage({
      role,
      path: '/brands',
      url: '/brands',
      Component: brandList.Component,
      data: {
        items: [brand],
        total: 1,
        query: { q: '', filter: '', sort: 'newest', dir: 'desc', page: 1 },
        display: { layout: 'cards', columns: [] },
        tableColumns: [],
        cardFields: cardFieldFacts(recordDefinition('brand')),
        sorts: SORTS.brand,
      },
    });
    await screen.findByText('Stride Shoes');
    expect(controls(WRITE_CONTROLS.list)).toEqual(shown ? WRITE_CONTROLS.list : []);
    list.unmount();

    // The detail page's tabs, each opened by its ?tab= link; reading stays for everyone: the payment and the
    // file's download are there for a viewer too.
    const tabs = [
      { tab: 'details', names: WRITE_CONTROLS.detail, readable: () => screen.getByText('Jane Doe') },
      { tab: 'payments', names: WRITE_CONTROLS.payments, readable: () => screen.getByText('Spring banner') },
      { tab: 'files', names: WRITE_CONTROLS.files, readable: () => screen.getByRole('link', { name: 'Download brief.pdf' }) },
    ];
    for (const { tab, names, readable } of tabs) {
      const detail = renderPage({
        role,
        path: '/brands/:id',
        url: `/brands/4?tab=${tab}`,
        Component: brandDetail.Component,
        data: {
          id: 4,
          record: brand,
          attachments: { contacts: [contact], payments: [payment], paymentsTotal: '10.00', files: [file] },
          detailGroups: detailGroupFacts(recordDefinition('brand')),
        },
      });
      await screen.findByRole('heading', { name: 'Stride Shoes' });
      expect(controls(names), tab).toEqual(shown ? names : []);
      expect(readable()).toBeTruthy();
      detail.unmount();
    }

    renderPage({
      role,
      path: '/contacts/:id',
      url: '/contacts/5',
      Component: contactDetail.Component,
      data: { contact: { ...contact, owner: { type: 'brand', id: 4, name: 'Stride Shoes' } }, returnTo: '/brands/4' },
    });
    await screen.findByRole('heading', { name: 'Jane Doe' });
    expect(controls(WRITE_CONTROLS.contact)).toEqual(shown ? WRITE_CONTROLS.contact : []);
  });
});
