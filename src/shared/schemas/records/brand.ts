import type { Audit } from '../fields.js';
import { BRAND } from '@shared/records/brand.js';
import { zodSchemaOf } from '@shared/records/zod.js';
import type { StoredValues } from './fields.js';

/** The brand's form fields, from its definition (src/shared/records/brand.ts). */
export const BrandInputSchema = zodSchemaOf(BRAND);

export interface Brand extends Audit, StoredValues<typeof BrandInputSchema> {
  /** The sum of the brand's payments. */
  totalAdvertisingSpend: string;
}
