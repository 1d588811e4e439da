import * as z from 'zod';
import type { Audit } from '../fields.js';
import { enumWithDefault, MAX_TEXT_LENGTH, optionalHandle, optionalText, optionalUrl, requiredName, type StoredValues } from './fields.js';
import { INFLUENCER_TYPES } from '@shared/choices.js';

export { INFLUENCER_TYPES } from '@shared/choices.js';

export const InfluencerInputSchema = z
  .object({
    firstName: requiredName('First name is required', 100),
    lastName: requiredName('Last name is required', 100),
    influencerType: enumWithDefault(INFLUENCER_TYPES, 'influencer', 'Type'),
    instagramHandle: optionalHandle(100),
    tiktokHandle: optionalHandle(100),
    facebookHandle: optionalHandle(255),
    websiteUrl: optionalUrl(),
    email: optionalText(320),
    phone: optionalText(50),
    notes: optionalText(MAX_TEXT_LENGTH),
  })
  .strict();

export type Influencer = Audit & StoredValues<typeof InfluencerInputSchema>;
