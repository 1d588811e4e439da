import { INFLUENCER_TYPES } from '@shared/choices.js';
import { INFLUENCER_TYPE_LABELS } from '@shared/labels.js';
import { notesField } from '@views/components/records/common-fields.js';
import { enumOptions, type FormSection } from '@views/components/records/form-fields.js';
import { formCheck } from '@views/hooks/form-check.js';

const HANDLE_HINT = 'The handle without the @';

/** Every field of InfluencerInputSchema: PUT replaces all of them. */
export const INFLUENCER_FORM: FormSection[] = [
  {
    title: 'Personal Information',
    fields: [
      { name: 'firstName', label: 'First name', kind: 'text', required: true },
      { name: 'lastName', label: 'Last name', kind: 'text', required: true },
      {
        name: 'influencerType',
        label: 'Type',
        kind: 'select',
        required: true,
        options: enumOptions(INFLUENCER_TYPES, INFLUENCER_TYPE_LABELS),
        defaultValue: 'influencer',
      },
      { name: 'email', label: 'Email', kind: 'email' },
      { name: 'phone', label: 'Phone', kind: 'tel' },
      { name: 'websiteUrl', label: 'Website', kind: 'url', placeholder: 'https://' },
    ],
  },
  {
    title: 'Social Media',
    fields: [
      { name: 'instagramHandle', label: 'Instagram handle', kind: 'text', hint: HANDLE_HINT },
      { name: 'tiktokHandle', label: 'TikTok handle', kind: 'text', hint: HANDLE_HINT },
      { name: 'facebookHandle', label: 'Facebook handle', kind: 'text', hint: 'The page name, or the profile URL' },
      notesField(),
    ],
  },
];

/** The influencer form's check in the browser: the schema the API parses it with, loaded as the form shows. */
export const influencerCheck = formCheck(() => import('@shared/schemas/records.js').then((schemas) => schemas.InfluencerInputSchema));
