import { notesField } from '@views/components/records/common-fields.js';
import type { FormSection } from '@views/components/records/form-fields.js';
import { formCheck } from '@views/hooks/form-check.js';

/** Every field of MediaInputSchema: PUT replaces all of them. */
export const MEDIA_FORM: FormSection[] = [
  {
    title: 'Media Information',
    fields: [
      { name: 'mediaName', label: 'Media name', kind: 'text', required: true },
      { name: 'industry', label: 'Industry', kind: 'text', placeholder: 'Podcast, magazine, radio...' },
      { name: 'websiteUrl', label: 'Website', kind: 'url', placeholder: 'https://' },
      { name: 'instagramUrl', label: 'Instagram URL', kind: 'url' },
      notesField(),
    ],
  },
];

/** The media outlet form's check in the browser: the schema the API parses it with, loaded as the form shows. */
export const mediaCheck = formCheck(() => import('@shared/schemas/records.js').then((schemas) => schemas.MediaInputSchema));
