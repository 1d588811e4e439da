import { INFLUENCER_TYPES } from '../choices.js';
import { INFLUENCER_TYPE_LABELS } from '../labels.js';
import { auditFields, notesField } from './common.js';
import { defineRecord } from './define.js';

const HANDLE_HINT = 'The handle without the @';

/** Influencers: every fact of each field, and where it shows (docs/conventions.md "Add a field"). */
export const INFLUENCER = defineRecord({
  type: 'influencer',
  fields: {
    firstName: {
      label: 'First name',
      rule: { type: 'name', message: 'First name is required', max: 100 },
      exportHeader: 'First Name',
    },
    lastName: {
      label: 'Last name',
      rule: { type: 'name', message: 'Last name is required', max: 100 },
      exportHeader: 'Last Name',
    },
    influencerType: {
      label: 'Type',
      rule: { type: 'enum', values: INFLUENCER_TYPES, labels: INFLUENCER_TYPE_LABELS, label: 'Type', fallback: 'influencer' },
      required: true,
      table: { sort: 'asc' },
      exportHeader: 'Type',
    },
    instagramHandle: {
      label: 'Instagram handle',
      rule: { type: 'handle', max: 100 },
      help: HANDLE_HINT,
      tableLabel: 'Instagram',
      table: { sort: 'asc' },
      exportHeader: 'Instagram',
      duplicateKey: true,
    },
    tiktokHandle: { label: 'TikTok handle', rule: { type: 'handle', max: 100 }, help: HANDLE_HINT, exportHeader: 'TikTok' },
    facebookHandle: {
      label: 'Facebook handle',
      rule: { type: 'handle', max: 255 },
      help: 'The page name, or the profile URL',
      exportHeader: 'Facebook',
    },
    websiteUrl: { label: 'Website', rule: { type: 'url' }, placeholder: 'https://', exportHeader: 'Website' },
    email: {
      label: 'Email',
      rule: { type: 'text', max: 320 },
      input: 'email',
      table: { sort: 'asc' },
      exportHeader: 'Email',
      duplicateKey: true,
    },
    phone: { label: 'Phone', rule: { type: 'text', max: 50 }, input: 'tel', exportHeader: 'Phone' },
    notes: notesField,
    /** "Full name": the last name, then the first name, when sorted. */
    name: { label: 'Name', computed: true, table: { sort: 'asc' } },
    ...auditFields,
  },
  form: [
    { title: 'Personal Information', fields: ['firstName', 'lastName', 'influencerType', 'email', 'phone', 'websiteUrl'] },
    { title: 'Social Media', fields: ['instagramHandle', 'tiktokHandle', 'facebookHandle', 'notes'] },
  ],
  // The detail page is written by hand: its social links (handles made into profile links) are not plain fields.
  detail: [],
  table: ['name', 'influencerType', 'instagramHandle', 'email', 'phone'],
  export: [
    'firstName',
    'lastName',
    'influencerType',
    'instagramHandle',
    'tiktokHandle',
    'facebookHandle',
    'websiteUrl',
    'email',
    'phone',
    'notes',
    'createdAt',
    'updatedAt',
  ],
  search: [['firstName', 'lastName'], 'instagramHandle', 'influencerType'],
});
