import * as z from 'zod';
import type { Audit } from '../fields.js';
import {
  LOCATION_STATES,
  MAX_TEXT_LENGTH,
  optionalDate,
  optionalEnum,
  optionalText,
  optionalUrl,
  requiredName,
  textWithDefault,
  type StoredValues,
} from './fields.js';

export const BrandInputSchema = z
  .object({
    brandName: requiredName('Brand name is required'),
    industryCategory: optionalText(255),
    websiteUrl: optionalUrl(),
    instagramUrl: optionalUrl(),
    facebookUrl: optionalUrl(),
    linkedinUrl: optionalUrl(),
    notes: optionalText(MAX_TEXT_LENGTH),
    paymentStatus: textWithDefault(20, 'current'),
    lastCampaignEndDate: optionalDate(),
    locationState: optionalEnum(LOCATION_STATES, 'State'),
  })
  .strict();

export interface Brand extends Audit, StoredValues<typeof BrandInputSchema> {
  /** The sum of the brand's payments. */
  totalAdvertisingSpend: string;
}
