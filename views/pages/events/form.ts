import { locationFields, newsletterFields, notesField } from '@views/components/records/common-fields.js';
import { RUN_TYPES, TRACK_TYPES } from '@shared/choices.js';
import { RUN_TYPE_LABELS, TRACK_TYPE_LABELS } from '@shared/labels.js';
import { enumOptions, type FormSection } from '@views/components/records/form-fields.js';
import { formCheck } from '@views/hooks/form-check.js';

/** Every field of EventInputSchema: PUT replaces all of them. */
export const EVENT_FORM: FormSection[] = [
  {
    title: 'Event',
    fields: [
      { name: 'eventName', label: 'Event name', kind: 'text', required: true },
      { name: 'eventStartDate', label: 'Start date', kind: 'date' },
      { name: 'eventEndDate', label: 'End date', kind: 'date' },
      { name: 'websiteUrl', label: 'Website', kind: 'url', placeholder: 'https://' },
      { name: 'featuredRace', label: 'Featured race', kind: 'checkbox' },
    ],
  },
  { title: 'Location', fields: locationFields() },
  {
    title: 'Race',
    fields: [
      { name: 'runType', label: 'Run types', kind: 'checkboxes', options: enumOptions(RUN_TYPES, RUN_TYPE_LABELS), keepStored: true },
      {
        name: 'trackType',
        label: 'Track types',
        kind: 'checkboxes',
        options: enumOptions(TRACK_TYPES, TRACK_TYPE_LABELS),
        keepStored: true,
      },
      { name: 'entryCost', label: 'Entry cost', kind: 'text' },
      { name: 'prizes', label: 'Prizes', kind: 'textarea' },
    ],
  },
  { title: 'Marketing', fields: [...newsletterFields(), notesField()] },
];

/** The event form's check in the browser: the schema the API parses it with, loaded as the form shows. */
export const eventCheck = formCheck(() => import('@shared/schemas/records.js').then((schemas) => schemas.EventInputSchema));
