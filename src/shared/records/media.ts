import { auditFields, notesField } from './common.js';
import { defineRecord } from './define.js';

/** Media outlets: every fact of each field, and where it shows (docs/conventions.md "Add a field"). */
export const MEDIA = defineRecord({
  type: 'media',
  fields: {
    mediaName: {
      label: 'Media name',
      rule: { type: 'name', message: 'Media name is required' },
      detailLabel: 'Name',
      tableLabel: 'Name',
      table: { sort: 'asc' },
      exportHeader: 'Media Name',
      duplicateKey: true,
    },
    industry: {
      label: 'Industry',
      rule: { type: 'text', max: 255 },
      placeholder: 'Podcast, magazine, radio...',
      table: { sort: 'asc' },
      exportHeader: 'Industry',
    },
    websiteUrl: { label: 'Website', rule: { type: 'url' }, placeholder: 'https://', exportHeader: 'Website' },
    instagramUrl: { label: 'Instagram URL', rule: { type: 'url' }, detailLabel: 'Instagram', exportHeader: 'Instagram' },
    notes: notesField,
    ...auditFields,
    updatedAt: { ...auditFields.updatedAt, tableLabel: 'Last updated', table: { sort: 'desc' } },
  },
  form: [{ title: 'Media Information', fields: ['mediaName', 'industry', 'websiteUrl', 'instagramUrl', 'notes'] }],
  detail: [{ title: 'Media Information', fields: ['mediaName', 'industry', 'websiteUrl', 'instagramUrl', 'notes'] }],
  table: ['mediaName', 'industry', 'websiteUrl', 'updatedAt'],
  export: ['mediaName', 'industry', 'websiteUrl', 'instagramUrl', 'notes', 'createdAt', 'updatedAt'],
  search: ['mediaName', 'industry'],
});
