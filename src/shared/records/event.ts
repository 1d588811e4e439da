import { RUN_TYPES, TRACK_TYPES } from '../choices.js';
import { RUN_TYPE_LABELS, TRACK_TYPE_LABELS } from '../labels.js';
import { auditFields, locationFields, MAX_TEXT_LENGTH, money, newsletterFields, notesField, syncFields } from './common.js';
import { defineRecord } from './define.js';

/** Events: every fact of each field, and where it shows (docs/conventions.md "Add a field"). */
export const EVENT = defineRecord({
  type: 'event',
  fields: {
    eventName: {
      label: 'Event name',
      rule: { type: 'name', message: 'Event name is required' },
      tableLabel: 'Name',
      table: { sort: 'asc' },
      exportHeader: 'Event Name',
    },
    eventStartDate: { label: 'Start date', rule: { type: 'date' }, table: { sort: 'asc' }, exportHeader: 'Start Date' },
    eventEndDate: { label: 'End date', rule: { type: 'date' }, exportHeader: 'End Date' },
    websiteUrl: { label: 'Website', rule: { type: 'url' }, placeholder: 'https://', import: { header: 'website' } },
    ...locationFields,
    runType: {
      label: 'Run types',
      rule: { type: 'slugList', values: RUN_TYPES, labels: RUN_TYPE_LABELS },
      tableLabel: 'Run type',
      exportHeader: 'Run Type',
    },
    trackType: {
      label: 'Track types',
      rule: { type: 'slugList', values: TRACK_TYPES, labels: TRACK_TYPE_LABELS },
      tableLabel: 'Track type',
      exportHeader: 'Track Type',
    },
    featuredRace: {
      label: 'Featured race',
      rule: { type: 'flag' },
      tableLabel: 'Status',
      table: { sort: 'desc' },
      exportHeader: 'Featured',
    },
    entryCost: { label: 'Entry cost', rule: { type: 'text', max: MAX_TEXT_LENGTH }, exportHeader: 'Entry Cost' },
    prizes: { label: 'Prizes', rule: { type: 'text', max: MAX_TEXT_LENGTH }, input: 'textarea', exportHeader: 'Prizes' },
    ...newsletterFields,
    notes: notesField,
    /** The post id on the content website: what the events import matches a row by. */
    wordpressEventId: { label: 'WordPress ID', column: 'integer', import: { header: 'event_id' }, duplicateKey: true },
    galleryImages: { label: 'Gallery images', column: 'list' },
    totalAdvertisingSpend: {
      label: 'Advertising spend',
      column: money,
      table: { sort: 'desc', hidden: true },
      exportHeader: 'Total Advertising Spend',
    },
    ...syncFields,
    wordpressLastSync: { ...syncFields.wordpressLastSync, table: { sort: 'desc', hidden: true } },
    ...auditFields,
  },
  form: [
    { title: 'Event', fields: ['eventName', 'eventStartDate', 'eventEndDate', 'websiteUrl', 'featuredRace'] },
    { title: 'Location', fields: ['locationAddress', 'locationState', 'locationLat', 'locationLng'] },
    { title: 'Race', fields: ['runType', 'trackType', 'entryCost', 'prizes'] },
    { title: 'Marketing', fields: ['lastNewsletterInclusion', 'newsletterInclusionNotes', 'notes'] },
  ],
  // The detail page is tabs (details, distances, gallery, contacts…) around a composed location: written by hand.
  detail: [],
  table: [
    'eventName',
    'eventStartDate',
    'locationState',
    'featuredRace',
    'runType',
    'trackType',
    'totalAdvertisingSpend',
    'wordpressLastSync',
  ],
  export: [
    'eventName',
    'wordpressEventId',
    'websiteUrl',
    { contact: 'firstName', header: 'First Name' },
    { contact: 'lastName', header: 'Last Name' },
    { contact: 'email', header: 'Email' },
    'eventStartDate',
    'eventEndDate',
    'locationState',
    'locationAddress',
    'runType',
    'trackType',
    'featuredRace',
    'entryCost',
    'prizes',
    'lastNewsletterInclusion',
    'totalAdvertisingSpend',
    'wordpressLastSync',
    'notes',
    'createdAt',
    'updatedAt',
  ],
  search: ['eventName', 'locationState', 'locationAddress', 'wordpressEventId'],
});
