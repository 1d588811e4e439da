import { CLUB_TYPES } from '@shared/choices.js';
import { locationFields, newsletterFields, notesField } from '@views/components/records/common-fields.js';
import { enumOptions, type FormSection } from '@views/components/records/form-fields.js';
import { CLUB_TYPE_LABELS } from '@shared/labels.js';
import { formCheck } from '@views/hooks/form-check.js';

/** Every field of RunClubInputSchema: PUT replaces all of them. */
export const RUN_CLUB_FORM: FormSection[] = [
  {
    title: 'Club',
    fields: [
      { name: 'clubName', label: 'Club name', kind: 'text', required: true },
      { name: 'clubType', label: 'Club type', kind: 'checkboxes', options: enumOptions(CLUB_TYPES, CLUB_TYPE_LABELS) },
      { name: 'foundedYear', label: 'Founded year', kind: 'number', placeholder: '2015' },
      { name: 'membershipCount', label: 'Membership count', kind: 'number' },
      { name: 'averageAttendance', label: 'Average attendance', kind: 'number' },
      { name: 'meetingTimes', label: 'Meeting times', kind: 'list', placeholder: 'Tue 6am, Sat 7am' },
      { name: 'cost', label: 'Cost', kind: 'text', placeholder: 'Free' },
    ],
  },
  { title: 'Location', fields: locationFields() },
  {
    title: 'Online',
    fields: [
      { name: 'websiteUrl', label: 'Website', kind: 'url', placeholder: 'https://' },
      { name: 'instagramUrl', label: 'Instagram URL', kind: 'url' },
      { name: 'facebookUrl', label: 'Facebook URL', kind: 'url' },
      { name: 'founderInstagramUrl', label: 'Founder Instagram URL', kind: 'url' },
      { name: 'clubEmail', label: 'Club email', kind: 'email' },
      { name: 'socialTitle', label: 'Social title', kind: 'text' },
    ],
  },
  {
    title: 'Membership',
    fields: [
      { name: 'isPayingMember', label: 'Paying member', kind: 'checkbox' },
      { name: 'paymentStatus', label: 'Payment status', kind: 'text', placeholder: 'none', hint: 'Left empty, it is stored as none.' },
      { name: 'extras', label: 'Extras', kind: 'textarea' },
      { name: 'footnote', label: 'Footnote', kind: 'textarea' },
    ],
  },
  { title: 'Marketing', fields: [...newsletterFields(), notesField()] },
];

/** The run club form's check in the browser: the schema the API parses it with, loaded as the form shows. */
export const runClubCheck = formCheck(() => import('@shared/schemas/records.js').then((schemas) => schemas.RunClubInputSchema));
