import { PROFESSIONAL } from '@shared/records/professional.js';
import { formOf } from '@views/components/records/definition-form.js';
import type { FormSection } from '@views/components/records/form-fields.js';
import { formCheck } from '@views/hooks/form-check.js';

/** Every field of ProfessionalInputSchema (PUT replaces all of them), from the professional's definition. */
export const PROFESSIONAL_FORM: FormSection[] = formOf(PROFESSIONAL);

/** The professional form's check in the browser: the schema the API parses it with, loaded as the form shows. */
export const professionalCheck = formCheck(() => import('@shared/schemas/records.js').then((schemas) => schemas.ProfessionalInputSchema));
