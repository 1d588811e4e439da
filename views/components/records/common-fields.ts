import { LOCATION_STATES } from '@shared/choices.js';
import { LOCATION_STATE_LABELS } from '@shared/labels.js';
import { enumOptions, type FieldSpec } from './form-fields.js';

/** Fields several record forms share, described once. */
export const stateField = (): FieldSpec => ({
  name: 'locationState',
  label: 'State',
  kind: 'select',
  options: enumOptions(LOCATION_STATES, LOCATION_STATE_LABELS),
});

export const locationFields = (): FieldSpec[] => [
  { name: 'locationAddress', label: 'Address', kind: 'text' },
  stateField(),
  { name: 'locationLat', label: 'Latitude', kind: 'number', decimal: true, placeholder: '-33.8688' },
  { name: 'locationLng', label: 'Longitude', kind: 'number', decimal: true, placeholder: '151.2093' },
];

export const newsletterFields = (): FieldSpec[] => [
  { name: 'lastNewsletterInclusion', label: 'Last newsletter inclusion', kind: 'date' },
  { name: 'newsletterInclusionNotes', label: 'Newsletter notes', kind: 'textarea' },
];

export const notesField = (): FieldSpec => ({ name: 'notes', label: 'Notes', kind: 'textarea' });
