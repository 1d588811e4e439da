import { notesField } from '@views/components/records/common-fields.js';
import type { FormSection } from '@views/components/records/form-fields.js';

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
