import * as z from 'zod';
import type { Audit } from '../fields.js';
import {
  enumWithDefault,
  flag,
  location,
  MAX_TEXT_LENGTH,
  optionalDate,
  optionalEnum,
  optionalText,
  optionalUrl,
  requiredName,
  textList,
  typeSlugList,
  type StoredValues,
  type Synced,
} from './fields.js';
import { PROFESSION_TYPES, SUBSCRIPTION_STATUSES } from '@shared/choices.js';

export { PROFESSION_TYPES, SUBSCRIPTION_STATUSES } from '@shared/choices.js';

/** wordpressProfessionalId is deliberately absent: a professional created or edited here stays unpublished. */
export const ProfessionalInputSchema = z
  .object({
    businessName: requiredName('Business name is required'),
    professionType: optionalEnum(PROFESSION_TYPES, 'Profession type'),
    contactType: textList(),
    trackType: typeSlugList(),
    specializations: textList(),
    credentials: textList(),
    deliveryMethods: textList(),
    ...location,
    websiteUrl: optionalUrl(),
    instagramUrl: optionalUrl(),
    facebookUrl: optionalUrl(),
    subscriptionStatus: enumWithDefault(SUBSCRIPTION_STATUSES, 'active', 'Subscription status'),
    subscriptionExpiryDate: optionalDate(),
    paymentAlertFlag: flag(),
    lastNewsletterInclusion: optionalDate(),
    newsletterInclusionNotes: optionalText(MAX_TEXT_LENGTH),
    notes: optionalText(MAX_TEXT_LENGTH),
  })
  .strict();

export interface Professional extends Audit, Synced, StoredValues<typeof ProfessionalInputSchema> {
  /** Set by the sync only: a professional created here stays unpublished. */
  wordpressProfessionalId: number | null;
  /** Set by the sync only: the content website's profession type when it is not one of ours (stored as `other`). */
  professionTypeOther: string | null;
  /** The sum of the professional's payments. */
  totalPayments: string;
}
