import { INFLUENCER } from '@shared/records/influencer.js';
import { zodSchemaOf } from '@shared/records/zod.js';
import type { Audit } from '../fields.js';
import { type StoredValues } from './fields.js';

export { INFLUENCER_TYPES } from '@shared/choices.js';

/** The form fields, from the definition (src/shared/records/influencer.ts). */
export const InfluencerInputSchema = zodSchemaOf(INFLUENCER);

export type Influencer = Audit & StoredValues<typeof InfluencerInputSchema>;
