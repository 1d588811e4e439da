import { LOCATION_STATES } from '../choices.js';
import { LOCATION_STATE_LABELS } from '../labels.js';
import type { FieldDef } from './define.js';

/** Fields several record types share, described once. */

/** Free text (TEXT columns hold 65,535 bytes; 4-byte characters times this stays inside). */
export const MAX_TEXT_LENGTH = 10_000;

export const stateField = {
  label: 'State',
  rule: { type: 'enum', values: LOCATION_STATES, labels: LOCATION_STATE_LABELS, label: 'State' },
  table: { sort: 'asc' },
  exportHeader: 'State',
} as const satisfies FieldDef;

/** The location fields of events, professionals and run clubs, in their schema's order. */
export const locationFields = {
  locationAddress: { label: 'Address', rule: { type: 'text', max: 500 }, exportHeader: 'Address' },
  locationLat: { label: 'Latitude', rule: { type: 'coordinate', label: 'Latitude' }, placeholder: '-33.8688' },
  locationLng: { label: 'Longitude', rule: { type: 'coordinate', label: 'Longitude' }, placeholder: '151.2093' },
  locationState: stateField,
} as const satisfies Record<string, FieldDef>;

export const newsletterFields = {
  lastNewsletterInclusion: {
    label: 'Last newsletter inclusion',
    rule: { type: 'date' },
    exportHeader: 'Last Newsletter Inclusion',
  },
  newsletterInclusionNotes: { label: 'Newsletter notes', rule: { type: 'text', max: MAX_TEXT_LENGTH }, input: 'textarea' },
} as const satisfies Record<string, FieldDef>;

export const notesField = {
  label: 'Notes',
  rule: { type: 'text', max: MAX_TEXT_LENGTH },
  input: 'textarea',
  exportHeader: 'Notes',
} as const satisfies FieldDef;

/** Kept by the server on every record. */
export const auditFields = {
  createdAt: { label: 'Created', column: 'timestamp', exportHeader: 'Created At' },
  updatedAt: { label: 'Updated', column: 'timestamp', exportHeader: 'Updated At' },
  createdBy: { label: 'Created by', column: 'integer' },
} as const satisfies Record<string, FieldDef>;

/** When the sync last wrote a synced record, and when it found its post unpublished. */
export const syncFields = {
  wordpressLastSync: { label: 'Last sync', column: 'timestamp', exportHeader: 'Last Sync' },
  wordpressUnpublishedAt: { label: 'Unpublished on the website', column: 'timestamp' },
} as const satisfies Record<string, FieldDef>;

export const money = { kind: 'money', scale: 2 } as const;
