import { BRAND } from '@shared/records/brand.js';
import { formOf } from '@views/components/records/definition-form.js';
import type { FormSection } from '@views/components/records/form-fields.js';
import { formCheck } from '@views/hooks/form-check.js';

/** Every field of BrandInputSchema (PUT replaces all of them), from the brand's definition. */
export const BRAND_FORM: FormSection[] = formOf(BRAND);

/** The brand form's check in the browser: the schema the API parses it with, loaded as the form shows. */
export const brandCheck = formCheck(() => import('@shared/schemas/records.js').then((schemas) => schemas.BrandInputSchema));
