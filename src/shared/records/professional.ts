import { PROFESSION_TYPES, SUBSCRIPTION_STATUSES, TRACK_TYPES } from '../choices.js';
import { PROFESSION_TYPE_LABELS, SUBSCRIPTION_STATUS_LABELS, TRACK_TYPE_LABELS } from '../labels.js';
import { auditFields, locationFields, money, newsletterFields, notesField, syncFields } from './common.js';
import { defineRecord } from './define.js';

/**
 * Professionals: every fact of each field, and where it shows (docs/conventions.md "Add a field").
 * wordpressProfessionalId has no rule: a professional created or edited here stays unpublished.
 */
export const PROFESSIONAL = defineRecord({
  type: 'professional',
  fields: {
    businessName: {
      label: 'Business name',
      rule: { type: 'name', message: 'Business name is required' },
      tableLabel: 'Name',
      table: { sort: 'asc' },
      exportHeader: 'Business Name',
      duplicateKey: true,
    },
    professionType: {
      label: 'Profession type',
      rule: { type: 'enum', values: PROFESSION_TYPES, labels: PROFESSION_TYPE_LABELS, label: 'Profession type' },
      tableLabel: 'Profession',
      table: { sort: 'asc' },
      exportHeader: 'Profession Type',
    },
    contactType: { label: 'Contact types', rule: { type: 'list' } },
    trackType: { label: 'Track types', rule: { type: 'slugList', values: TRACK_TYPES, labels: TRACK_TYPE_LABELS } },
    specializations: { label: 'Specializations', rule: { type: 'list' }, exportHeader: 'Specializations' },
    credentials: { label: 'Credentials', rule: { type: 'list' }, exportHeader: 'Credentials' },
    deliveryMethods: { label: 'Delivery methods', rule: { type: 'list' }, placeholder: 'in person, online' },
    ...locationFields,
    locationState: { ...locationFields.locationState, tableLabel: 'Location' },
    websiteUrl: { label: 'Website', rule: { type: 'url' }, placeholder: 'https://', exportHeader: 'Website', duplicateKey: true },
    instagramUrl: {
      label: 'Instagram URL',
      rule: { type: 'url' },
      placeholder: 'https://www.instagram.com/...',
      detailLabel: 'Instagram',
      exportHeader: 'Instagram',
    },
    facebookUrl: {
      label: 'Facebook URL',
      rule: { type: 'url' },
      placeholder: 'https://www.facebook.com/...',
      detailLabel: 'Facebook',
      exportHeader: 'Facebook',
    },
    subscriptionStatus: {
      label: 'Subscription status',
      rule: {
        type: 'enum',
        values: SUBSCRIPTION_STATUSES,
        labels: SUBSCRIPTION_STATUS_LABELS,
        label: 'Subscription status',
        fallback: 'active',
      },
      tableLabel: 'Subscription',
      table: { sort: 'asc', hidden: true },
      exportHeader: 'Subscription Status',
    },
    subscriptionExpiryDate: { label: 'Subscription expiry date', rule: { type: 'date' }, exportHeader: 'Subscription Expiry Date' },
    paymentAlertFlag: { label: 'Payment alert', rule: { type: 'flag' } },
    lastNewsletterInclusion: { ...newsletterFields.lastNewsletterInclusion, tableLabel: 'Last newsletter', table: { sort: 'desc' } },
    newsletterInclusionNotes: newsletterFields.newsletterInclusionNotes,
    notes: notesField,
    wordpressProfessionalId: { label: 'WordPress ID', column: 'integer', exportHeader: 'WordPress ID', duplicateKey: true },
    professionTypeOther: { label: 'Other profession type' },
    totalPayments: { label: 'Total payments', column: money, table: { sort: 'desc', hidden: true }, exportHeader: 'Total Payments' },
    /** Whether the content website shows the professional (its post id, and whether the post is unpublished). */
    published: { label: 'Published', computed: true },
    ...syncFields,
    ...auditFields,
  },
  form: [
    { title: 'Business', fields: ['businessName', 'professionType', 'websiteUrl', 'instagramUrl', 'facebookUrl'] },
    { title: 'Services', fields: ['specializations', 'credentials', 'deliveryMethods', 'contactType', 'trackType'] },
    { title: 'Location', fields: ['locationAddress', 'locationState', 'locationLat', 'locationLng'] },
    { title: 'Subscription', fields: ['subscriptionStatus', 'subscriptionExpiryDate', 'paymentAlertFlag'] },
    { title: 'Marketing', fields: ['lastNewsletterInclusion', 'newsletterInclusionNotes', 'notes'] },
  ],
  // The detail page's groups mix badges, a composed location and the profession's "other" text: written by hand.
  detail: [],
  table: [
    'businessName',
    'professionType',
    'locationState',
    'published',
    'websiteUrl',
    'lastNewsletterInclusion',
    'subscriptionStatus',
    'totalPayments',
  ],
  sorts: ['businessName', 'professionType', 'locationState', 'subscriptionStatus', 'totalPayments', 'lastNewsletterInclusion'],
  export: [
    'businessName',
    'professionType',
    'wordpressProfessionalId',
    'locationState',
    'locationAddress',
    'websiteUrl',
    'instagramUrl',
    'facebookUrl',
    'specializations',
    'credentials',
    'subscriptionStatus',
    'subscriptionExpiryDate',
    'totalPayments',
    'lastNewsletterInclusion',
    'notes',
    'createdAt',
    'updatedAt',
  ],
  search: ['businessName', 'professionType', 'locationState'],
});
