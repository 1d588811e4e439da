import { PROFESSIONAL } from '@shared/records/professional.js';
import { zodSchemaOf } from '@shared/records/zod.js';
import type { Audit } from '../fields.js';
import { type StoredValues, type Synced } from './fields.js';

export { PROFESSION_TYPES, SUBSCRIPTION_STATUSES } from '@shared/choices.js';

/** wordpressProfessionalId is deliberately absent: a professional created or edited here stays unpublished. */
/** The form fields, from the definition (src/shared/records/professional.ts). */
export const ProfessionalInputSchema = zodSchemaOf(PROFESSIONAL);

export interface Professional extends Audit, Synced, StoredValues<typeof ProfessionalInputSchema> {
  /** Set by the sync only: a professional created here stays unpublished. */
  wordpressProfessionalId: number | null;
  /** Set by the sync only: the content website's profession type when it is not one of ours (stored as `other`). */
  professionTypeOther: string | null;
  /** The sum of the professional's payments. */
  totalPayments: string;
}
