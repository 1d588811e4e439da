import { notesField, stateField } from '@views/components/records/common-fields.js';
import type { FormSection } from '@views/components/records/form-fields.js';
import { formCheck } from '@views/hooks/form-check.js';

/** Every field of BrandInputSchema: PUT replaces all of them. */
export const BRAND_FORM: FormSection[] = [
  {
    title: 'Brand Information',
    fields: [
      { name: 'brandName', label: 'Brand name', kind: 'text', required: true },
      { name: 'industryCategory', label: 'Industry category', kind: 'text', placeholder: 'Footwear' },
      stateField(),
      { name: 'websiteUrl', label: 'Website', kind: 'url', placeholder: 'https://' },
      { name: 'instagramUrl', label: 'Instagram URL', kind: 'url' },
      { name: 'facebookUrl', label: 'Facebook URL', kind: 'url' },
      { name: 'linkedinUrl', label: 'LinkedIn URL', kind: 'url' },
      notesField(),
    ],
  },
  {
    title: 'Advertising',
    fields: [
      {
        name: 'paymentStatus',
        label: 'Payment status',
        kind: 'text',
        placeholder: 'current',
        hint: 'Left empty, it is stored as current.',
      },
      { name: 'lastCampaignEndDate', label: 'Last campaign end date', kind: 'date' },
    ],
  },
];

/** The brand form's check in the browser: the schema the API parses it with, loaded as the form shows. */
export const brandCheck = formCheck(() => import('@shared/schemas/records.js').then((schemas) => schemas.BrandInputSchema));
