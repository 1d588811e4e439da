import * as z from 'zod';
import type { Audit } from '../fields.js';
import { MAX_TEXT_LENGTH, optionalText, optionalUrl, requiredName, type StoredValues } from './fields.js';

export const MediaInputSchema = z
  .object({
    mediaName: requiredName('Media name is required'),
    industry: optionalText(255),
    websiteUrl: optionalUrl(),
    instagramUrl: optionalUrl(),
    notes: optionalText(MAX_TEXT_LENGTH),
  })
  .strict();

export type Media = Audit & StoredValues<typeof MediaInputSchema>;
