import { RUN_CLUB } from '@shared/records/runclub.js';
import { formOf } from '@views/components/records/definition-form.js';
import type { FormSection } from '@views/components/records/form-fields.js';
import { formCheck } from '@views/hooks/form-check.js';

/** Every field of RunClubInputSchema (PUT replaces all of them), from the run club's definition. */
export const RUN_CLUB_FORM: FormSection[] = formOf(RUN_CLUB);

/** The run club form's check in the browser: the schema the API parses it with, loaded as the form shows. */
export const runClubCheck = formCheck(() => import('@shared/schemas/records.js').then((schemas) => schemas.RunClubInputSchema));
