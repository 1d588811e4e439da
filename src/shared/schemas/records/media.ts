import { MEDIA } from '@shared/records/media.js';
import { zodSchemaOf } from '@shared/records/zod.js';
import type { Audit } from '../fields.js';
import { type StoredValues } from './fields.js';

/** The form fields, from the definition (src/shared/records/media.ts). */
export const MediaInputSchema = zodSchemaOf(MEDIA);

export type Media = Audit & StoredValues<typeof MediaInputSchema>;
