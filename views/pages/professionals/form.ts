import { PROFESSION_TYPES, SUBSCRIPTION_STATUSES, TRACK_TYPES } from '@shared/choices.js';
import { locationFields, newsletterFields, notesField } from '@views/components/records/common-fields.js';
import { enumOptions, type FormSection } from '@views/components/records/form-fields.js';
import { PROFESSION_TYPE_LABELS, SUBSCRIPTION_STATUS_LABELS, TRACK_TYPE_LABELS } from '@shared/labels.js';
import { formCheck } from '@views/hooks/form-check.js';

/** Every field of ProfessionalInputSchema: PUT replaces all of them. */
export const PROFESSIONAL_FORM: FormSection[] = [
  {
    title: 'Business',
    fields: [
      { name: 'businessName', label: 'Business name', kind: 'text', required: true },
      { name: 'professionType', label: 'Profession type', kind: 'select', options: enumOptions(PROFESSION_TYPES, PROFESSION_TYPE_LABELS) },
      { name: 'websiteUrl', label: 'Website', kind: 'url', placeholder: 'https://' },
      { name: 'instagramUrl', label: 'Instagram URL', kind: 'url', placeholder: 'https://www.instagram.com/...' },
      { name: 'facebookUrl', label: 'Facebook URL', kind: 'url', placeholder: 'https://www.facebook.com/...' },
    ],
  },
  {
    title: 'Services',
    fields: [
      { name: 'specializations', label: 'Specializations', kind: 'list' },
      { name: 'credentials', label: 'Credentials', kind: 'list' },
      { name: 'deliveryMethods', label: 'Delivery methods', kind: 'list', placeholder: 'in person, online' },
      { name: 'contactType', label: 'Contact types', kind: 'list' },
      {
        name: 'trackType',
        label: 'Track types',
        kind: 'checkboxes',
        options: enumOptions(TRACK_TYPES, TRACK_TYPE_LABELS),
        keepStored: true,
      },
    ],
  },
  { title: 'Location', fields: locationFields() },
  {
    title: 'Subscription',
    fields: [
      {
        name: 'subscriptionStatus',
        label: 'Subscription status',
        kind: 'select',
        options: enumOptions(SUBSCRIPTION_STATUSES, SUBSCRIPTION_STATUS_LABELS),
        defaultValue: 'active',
      },
      { name: 'subscriptionExpiryDate', label: 'Subscription expiry date', kind: 'date' },
      { name: 'paymentAlertFlag', label: 'Payment alert', kind: 'checkbox' },
    ],
  },
  { title: 'Marketing', fields: [...newsletterFields(), notesField()] },
];

/** The professional form's check in the browser: the schema the API parses it with, loaded as the form shows. */
export const professionalCheck = formCheck(() => import('@shared/schemas/records.js').then((schemas) => schemas.ProfessionalInputSchema));
