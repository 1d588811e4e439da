import { CLUB_TYPES } from '../choices.js';
import { CLUB_TYPE_LABELS } from '../labels.js';
import { auditFields, locationFields, MAX_TEXT_LENGTH, money, newsletterFields, notesField, syncFields } from './common.js';
import { defineRecord } from './define.js';

const UNSIGNED_INT_MAX = 4_294_967_295;

/** Run clubs: every fact of each field, and where it shows (docs/conventions.md "Add a field"). */
export const RUN_CLUB = defineRecord({
  type: 'runclub',
  fields: {
    clubName: {
      label: 'Club name',
      rule: { type: 'name', message: 'Club name is required' },
      tableLabel: 'Name',
      table: { sort: 'asc' },
      exportHeader: 'Club Name',
      duplicateKey: true,
    },
    ...locationFields,
    clubType: {
      label: 'Club type',
      rule: { type: 'enumList', values: CLUB_TYPES, labels: CLUB_TYPE_LABELS, label: 'Club type' },
      exportHeader: 'Club Type',
    },
    foundedYear: {
      label: 'Founded year',
      rule: { type: 'integer', label: 'Founded year', min: 1800, max: 2100 },
      placeholder: '2015',
      exportHeader: 'Founded Year',
    },
    membershipCount: {
      label: 'Membership count',
      rule: { type: 'integer', label: 'Membership count', min: 0, max: UNSIGNED_INT_MAX },
      tableLabel: 'Members',
      table: { sort: 'desc' },
      exportHeader: 'Membership Count',
    },
    meetingTimes: { label: 'Meeting times', rule: { type: 'list' }, placeholder: 'Tue 6am, Sat 7am' },
    cost: { label: 'Cost', rule: { type: 'text', max: 255 }, placeholder: 'Free' },
    averageAttendance: {
      label: 'Average attendance',
      rule: { type: 'integer', label: 'Average attendance', min: 0, max: UNSIGNED_INT_MAX },
    },
    websiteUrl: { label: 'Website', rule: { type: 'url' }, placeholder: 'https://', exportHeader: 'Website', duplicateKey: true },
    instagramUrl: { label: 'Instagram URL', rule: { type: 'url' }, detailLabel: 'Instagram', exportHeader: 'Instagram' },
    facebookUrl: { label: 'Facebook URL', rule: { type: 'url' }, detailLabel: 'Facebook' },
    founderInstagramUrl: { label: 'Founder Instagram URL', rule: { type: 'url' }, detailLabel: 'Founder Instagram' },
    clubEmail: { label: 'Club email', rule: { type: 'text', max: 320 }, input: 'email', exportHeader: 'Club Email' },
    isPayingMember: { label: 'Paying member', rule: { type: 'flag' }, exportHeader: 'Paying Member' },
    paymentStatus: {
      label: 'Payment status',
      rule: { type: 'text', max: 20, fallback: 'none' },
      placeholder: 'none',
      help: 'Left empty, it is stored as none.',
      table: { sort: 'asc' },
      exportHeader: 'Payment Status',
    },
    extras: { label: 'Extras', rule: { type: 'text', max: MAX_TEXT_LENGTH }, input: 'textarea' },
    footnote: { label: 'Footnote', rule: { type: 'text', max: MAX_TEXT_LENGTH }, input: 'textarea' },
    socialTitle: { label: 'Social title', rule: { type: 'text', max: 255 } },
    lastNewsletterInclusion: {
      ...newsletterFields.lastNewsletterInclusion,
      tableLabel: 'Last newsletter',
      table: { sort: 'desc', hidden: true },
    },
    newsletterInclusionNotes: newsletterFields.newsletterInclusionNotes,
    notes: notesField,
    wordpressClubId: { label: 'WordPress ID', column: 'integer', exportHeader: 'WordPress ID', duplicateKey: true },
    clubTypeOther: { label: 'Other club types', column: 'list' },
    totalPayments: { label: 'Total payments', column: money, table: { sort: 'desc' }, exportHeader: 'Total Payments' },
    ...syncFields,
    ...auditFields,
  },
  form: [
    {
      title: 'Club',
      fields: ['clubName', 'clubType', 'foundedYear', 'membershipCount', 'averageAttendance', 'meetingTimes', 'cost'],
    },
    { title: 'Location', fields: ['locationAddress', 'locationState', 'locationLat', 'locationLng'] },
    { title: 'Online', fields: ['websiteUrl', 'instagramUrl', 'facebookUrl', 'founderInstagramUrl', 'clubEmail', 'socialTitle'] },
    { title: 'Membership', fields: ['isPayingMember', 'paymentStatus', 'extras', 'footnote'] },
    { title: 'Marketing', fields: ['lastNewsletterInclusion', 'newsletterInclusionNotes', 'notes'] },
  ],
  // The detail page's groups mix the club's own type words, a composed location and a mail link: written by hand.
  detail: [],
  table: ['clubName', 'locationState', 'clubType', 'membershipCount', 'paymentStatus', 'totalPayments', 'lastNewsletterInclusion'],
  export: [
    'clubName',
    'wordpressClubId',
    'locationState',
    'locationAddress',
    'clubType',
    'foundedYear',
    'membershipCount',
    'clubEmail',
    'websiteUrl',
    'instagramUrl',
    'isPayingMember',
    'paymentStatus',
    'totalPayments',
    'lastNewsletterInclusion',
    'notes',
    'createdAt',
    'updatedAt',
  ],
  search: ['clubName', 'locationState'],
});
